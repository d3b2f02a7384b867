#include "cli/flag_values.h"

#include "text/lists.h"

namespace rkv {

void usage_fail(const std::string& line) {
  throw UsageError{line};
}

std::int64_t int_flag(const std::string& flag, const std::string& text, std::int64_t lo,
                      std::int64_t hi) {
  const Parsed<std::int64_t> v = parse_int(text, lo, hi);
  if (!v) usage_fail(flag + ": " + v.error);
  return *v;
}

double real_flag(const std::string& flag, const std::string& text, double lo, double hi) {
  const Parsed<double> v = parse_real(text, lo, hi);
  if (!v) usage_fail(flag + ": " + v.error);
  return *v;
}

std::string path_flag(const std::string& flag, const std::string& text) {
  if (text.empty()) usage_fail(flag + ": an empty path");
  return text;
}

std::vector<std::string> list_flag(const std::string& flag, const std::string& text) {
  const Parsed<std::vector<std::string>> items = parse_list(text);
  if (!items) usage_fail(flag + ": " + items.error);
  return *items;
}

}  // namespace rkv
