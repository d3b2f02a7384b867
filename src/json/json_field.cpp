#include "json/json_field.h"

#include <nlohmann/json.hpp>

#include "text/lists.h"

namespace rkv {
namespace {

bool plain_key(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-'))
      return false;
  return true;
}

}  // namespace

std::string member_path(const std::string& parent, std::string_view key) {
  if (!plain_key(key)) return parent + "[" + quote(key) + "]";
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string element_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

JsonField::JsonField(const nlohmann::json& value, std::string path, std::string key)
    : value_(&value), path_(std::move(path)), key_(std::move(key)) {}

void JsonField::fail(const std::string& why) const {
  throw JsonError(path_.empty() ? why : path_ + ": " + why);
}

std::string JsonField::describe() const {
  const nlohmann::json& v = *value_;
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_number_float()) return "a fractional number " + v.dump();
  if (v.is_number_integer()) return "an integer";
  return "a binary value";
}

bool JsonField::is_null() const {
  return value_->is_null();
}
bool JsonField::is_object() const {
  return value_->is_object();
}
bool JsonField::is_array() const {
  return value_->is_array();
}
bool JsonField::is_string() const {
  return value_->is_string();
}
bool JsonField::is_integer() const {
  return value_->is_number_integer();
}
bool JsonField::is_number() const {
  return value_->is_number();
}

std::string JsonField::as_string() const {
  if (!is_string()) fail("expected a string, got " + describe());
  return value_->get<std::string>();
}

bool JsonField::as_bool() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + describe());
  return value_->get<bool>();
}

std::int64_t JsonField::as_int(std::int64_t lo, std::int64_t hi) const {
  if (!is_integer()) fail("expected an integer, got " + describe());
  // Non-negative integers are parsed as unsigned; one past INT64_MAX is out of any int64 range.
  const bool too_big = value_->is_number_unsigned() &&
                       value_->get<std::uint64_t>() >
                           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const std::int64_t v = too_big ? 0 : value_->get<std::int64_t>();
  if (too_big || v < lo || v > hi)
    fail(value_->dump() + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
         "]");
  return v;
}

int JsonField::as_int32() const {
  return static_cast<int>(as_int(std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::uint64_t JsonField::as_uint() const {
  if (!is_integer() || (!value_->is_number_unsigned() && value_->get<std::int64_t>() < 0))
    fail("expected a non-negative integer, got " + (is_integer() ? value_->dump() : describe()));
  return value_->is_number_unsigned() ? value_->get<std::uint64_t>()
                                      : static_cast<std::uint64_t>(value_->get<std::int64_t>());
}

double JsonField::as_number() const {
  if (!is_number()) fail("expected a number, got " + describe());
  return value_->get<double>();
}

double JsonField::as_number_or_nan() const {
  if (is_null()) return std::numeric_limits<double>::quiet_NaN();
  return as_number();
}

std::string JsonField::number_text() const {
  if (!is_number()) fail("expected a number, got " + describe());
  return value_->dump();
}

void JsonField::require_object() const {
  if (!is_object()) fail("expected an object, got " + describe());
}

JsonField JsonField::at(std::string_view key) const {
  std::optional<JsonField> f = find(key);
  if (!f) fail("missing key " + quote(key));
  return *f;
}

std::optional<JsonField> JsonField::find(std::string_view key) const {
  require_object();
  const auto it = value_->find(std::string(key));
  if (it == value_->end()) return std::nullopt;
  return JsonField(*it, member_path(path_, key), std::string(key));
}

bool JsonField::has(std::string_view key) const {
  return find(key).has_value();
}

std::vector<JsonField> JsonField::members() const {
  require_object();
  std::vector<JsonField> out;
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(*it, member_path(path_, it.key()), it.key());
  return out;
}

void JsonField::check_keys(const std::vector<std::string>& known) const {
  for (const JsonField& m : members()) {
    bool found = false;
    for (const std::string& k : known)
      found = found || k == m.key();
    if (!found)
      fail("unknown key " + quote(m.key()) + (path_.empty() ? " at the top level" : "") +
           " (expected one of " + join(known) + ")");
  }
}

std::vector<JsonField> JsonField::elements() const {
  if (!is_array()) fail("expected an array, got " + describe());
  std::vector<JsonField> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], element_path(path_, i));
  return out;
}

}  // namespace rkv
