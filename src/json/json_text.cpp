// A SAX handler builds the value so that every failure is ours to word: nlohmann's parser reports
// the position and the kind of error to it instead of throwing its own message.
#include "json/json_text.h"

#include <set>
#include <vector>

#include "io/input_file.h"
#include "json/json_field.h"
#include "text/quote.h"

namespace rkv {
namespace {

using nlohmann::json;

// nlohmann's error ids (its documented exception table) that we reword.
constexpr int kNumberOverflow = 406;

class ValueBuilder : public nlohmann::json_sax<json> {
 public:
  explicit ValueBuilder(std::string_view text) : text_(text) {}

  json take() { return std::move(root_); }
  const std::string& error() const { return error_; }

  bool null() override { return add(nullptr); }
  bool boolean(bool v) override { return add(v); }
  bool number_integer(number_integer_t v) override { return add(v); }
  bool number_unsigned(number_unsigned_t v) override { return add(v); }
  bool number_float(number_float_t v, const string_t& text) override {
    // nlohmann turns an integer past 64 bits into a double quietly; a seed or a byte count that
    // lost its low digits would be a silent wrong answer.
    if (text.find_first_of(".eE") == string_t::npos)
      return fail(prefix(value_path()) + "number " + quote(text) + " does not fit in 64 bits");
    return add(v);
  }
  bool string(string_t& v) override { return add(std::move(v)); }
  bool binary(binary_t&) override { return fail("not valid JSON: binary values"); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (!f.keys.insert(k).second)
      return fail(prefix(container_path(stack_.size())) + "duplicate key " + quote(k));
    f.key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& ex) override {
    if (ex.id == kNumberOverflow)
      return fail(prefix(value_path()) + "number " + quote(token) + " is out of range");
    std::string line = "not valid JSON";
    // `position` counts the characters read, so the offending one is text_[position - 1].
    if (position == 0 || position > text_.size()) {
      line += ": the text ends before the value does";
    } else {
      std::size_t row = 1, column = 1;
      for (std::size_t i = 0; i + 1 < position; ++i, ++column)
        if (text_[i] == '\n') ++row, column = 0;
      line += " at line " + std::to_string(row) + ", column " + std::to_string(column) +
              ": syntax error at " + quote(text_.substr(position - 1, 1));
    }
    const std::string path = container_path(stack_.size());
    return fail(line + (path.empty() ? "" : " (in " + path + ")"));
  }

 private:
  struct Frame {
    json* value;
    std::set<std::string> keys;  // objects: the keys seen so far
    std::string key;             // objects: the key of the value being read
  };

  // The path of the container at stack_[n - 1] ("" for the top level). A container inside an
  // array is that array's last element while it is open.
  std::string container_path(std::size_t n) const {
    std::string path;
    for (std::size_t i = 1; i < n; ++i) {
      const Frame& parent = stack_[i - 1];
      path = parent.value->is_array() ? element_path(path, parent.value->size() - 1)
                                      : member_path(path, parent.key);
    }
    return path;
  }
  // The path of the value being read: the next element or member of the innermost container.
  std::string value_path() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    const std::string base = container_path(stack_.size());
    return top.value->is_array() ? element_path(base, top.value->size())
                                 : member_path(base, top.key);
  }
  static std::string prefix(const std::string& path) { return path.empty() ? "" : path + ": "; }

  template <class V>
  json* place(V&& v) {
    if (stack_.empty()) {
      root_ = json(std::forward<V>(v));
      return &root_;
    }
    json& parent = *stack_.back().value;
    if (parent.is_array()) {
      parent.push_back(json(std::forward<V>(v)));
      return &parent.back();
    }
    json& slot = parent[stack_.back().key];
    slot = json(std::forward<V>(v));
    return &slot;
  }
  template <class V>
  bool add(V&& v) {
    place(std::forward<V>(v));
    return true;
  }
  bool open(json empty) {
    // Containers are never moved once placed: objects are std::map nodes, and an array only
    // grows while it is the innermost open container (its earlier elements are complete).
    json* v = place(std::move(empty));
    stack_.push_back(Frame{v, {}, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  bool fail(std::string line) {
    if (error_.empty()) error_ = std::move(line);
    return false;  // stops the parser
  }

  std::string_view text_;
  json root_;
  std::vector<Frame> stack_;
  std::string error_;
};

}  // namespace

json parse_json(std::string_view text) {
  ValueBuilder builder(text);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception&) {  // not expected with a SAX handler; still one line
    throw JsonError("not valid JSON");
  }
  if (!ok) throw JsonError(builder.error().empty() ? "not valid JSON" : builder.error());
  return builder.take();
}

json read_json_file(const std::string& path) {
  const Parsed<std::string> text = read_input_file(path, "a JSON file");
  if (!text) throw JsonError(text.error);
  return parse_json(*text);
}

}  // namespace rkv
