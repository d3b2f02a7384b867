// JsonField: a JSON value together with its key path ("cases[3].spec.dtype"), and typed reads
// that throw JsonError naming that path. The config reader and the report reader both read
// through it, so a wrong type, a missing key or a number out of range reads the same in both:
//   "timing.min_samples: expected an integer, got a string"
//   "cases[2].variants[1]: missing key 'median_us'"
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "json/json_error.h"
#include "text/quote.h"

namespace rkv {

// Key paths: `parent.key` (just `key` at the top), `parent[index]`. A key that is not a plain
// name (letters, digits, '_', '-') is written quoted: launch_floor_us['a b'].
std::string member_path(const std::string& parent, std::string_view key);
std::string element_path(const std::string& parent, std::size_t index);

class JsonField {
 public:
  // `value` must outlive the field and every field read from it.
  explicit JsonField(const nlohmann::json& value, std::string path = "", std::string key = "");

  const std::string& path() const { return path_; }
  const std::string& key() const { return key_; }  // its key in the parent object, if any
  const nlohmann::json& value() const { return *value_; }

  // Throws JsonError "path: why" ("why" alone at the top level).
  [[noreturn]] void fail(const std::string& why) const;
  // What the value is, for messages: "a string", "an integer", "a fractional number 7.5",
  // "an object", "an array", "a boolean", "null".
  std::string describe() const;

  bool is_null() const;
  bool is_object() const;
  bool is_array() const;
  bool is_string() const;
  bool is_integer() const;
  bool is_number() const;  // integer or fractional

  std::string as_string() const;
  bool as_bool() const;
  std::int64_t as_int(std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                      std::int64_t hi = std::numeric_limits<std::int64_t>::max()) const;
  int as_int32() const;
  std::uint64_t as_uint() const;
  double as_number() const;
  // JSON has no NaN or infinity: nlohmann writes them as null, so null reads back as NaN.
  double as_number_or_nan() const;
  // A number as JSON writes it ("10", "0.5"), for readers that hand it to a text parser.
  std::string number_text() const;
  // A string value passed through `parse` (any `std::optional<E>(const std::string&)`):
  // "path: unknown value 'bf17'".
  template <class Parse>
  auto as_enum(Parse parse) const -> typename decltype(parse(std::string()))::value_type {
    const std::string text = as_string();
    auto value = parse(text);
    if (!value) fail("unknown value " + quote(text));
    return *value;
  }

  // ---- objects: each read checks that this is an object ("path: expected an object, got ...")
  JsonField at(std::string_view key) const;  // "path: missing key 'k'"
  std::optional<JsonField> find(std::string_view key) const;
  bool has(std::string_view key) const;
  std::vector<JsonField> members() const;  // in key order
  // Fails on the first key not in `known`: "path: unknown key 'x' (expected one of a, b)".
  void check_keys(const std::vector<std::string>& known) const;

  // ---- arrays: "path: expected an array, got ..."
  std::vector<JsonField> elements() const;

 private:
  void require_object() const;
  const nlohmann::json* value_;
  std::string path_, key_;
};

}  // namespace rkv
