#include "text/lists.h"

#include <limits>

#include "text/numbers.h"
#include "text/quote.h"

namespace rkv {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    parts.emplace_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

Parsed<std::vector<std::string>> parse_list(std::string_view text) {
  using Result = Parsed<std::vector<std::string>>;
  std::vector<std::string> items = split(text, ',');
  for (const std::string& item : items)
    if (item.empty()) return Result::fail(quote(text) + " has an empty value");
  return Result{std::move(items), {}};
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i ? sep : "") + items[i];
  return s;
}

Parsed<std::vector<std::int64_t>> parse_int_range(std::string_view text) {
  using Result = Parsed<std::vector<std::int64_t>>;
  const std::string syntax = " (expected N, a:b, a:b:step or pow2:a:b)";
  const std::vector<std::string> parts = split(text, ':');
  const bool pow2 = parts[0] == "pow2";
  if (parts.size() == 1) {
    const Parsed<std::int64_t> v = parse_int(text);
    if (v) return Result{std::vector<std::int64_t>{*v}, {}};
    // An integer too large for 64 bits keeps the integer parser's words; other text gets the
    // syntax of a range, since it may have been meant as one.
    const std::string_view digits = text.substr(!text.empty() && text[0] == '-' ? 1 : 0);
    const bool integer_shaped =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
    return Result::fail(integer_shaped ? v.error : v.error + syntax);
  }
  if ((pow2 && parts.size() != 3) || (!pow2 && parts.size() > 3))
    return Result::fail(quote(text) + " is not a range" + syntax);
  const std::size_t first = pow2 ? 1 : 0;
  const Parsed<std::int64_t> a = parse_int(parts[first]);
  const Parsed<std::int64_t> b = parse_int(parts[first + 1]);
  const Parsed<std::int64_t> step =
      (!pow2 && parts.size() == 3) ? parse_int(parts[2]) : Parsed<std::int64_t>{1, {}};
  if (!a || !b || !step) return Result::fail(quote(text) + " is not a range" + syntax);
  if (*a > *b)
    return Result::fail(quote(text) + " is not a range: start " + std::to_string(*a) +
                        " is after end " + std::to_string(*b));
  if (*step <= 0) return Result::fail(quote(text) + ": the step must be positive");

  std::vector<std::int64_t> values;
  if (pow2) {
    // Walk the powers of two up to b; 2^62 is the largest that fits, so stop before overflow.
    for (std::int64_t p = 1; p <= *b; p *= 2) {
      if (p >= *a) values.push_back(p);
      if (p > std::numeric_limits<std::int64_t>::max() / 2) break;
    }
    if (values.empty()) return Result::fail(quote(text) + " contains no power of two");
    return Result{std::move(values), {}};
  }
  // Count first so that 1:1000000000 fails fast instead of filling memory. b - a fits in uint64
  // for any int64 pair; the count itself (up to 2^64) may not, hence `steps`.
  const std::uint64_t steps = (static_cast<std::uint64_t>(*b) - static_cast<std::uint64_t>(*a)) /
                              static_cast<std::uint64_t>(*step);
  if (steps >= kMaxRangeValues) {
    const std::string count = steps == std::numeric_limits<std::uint64_t>::max()
                                  ? "18446744073709551616"
                                  : std::to_string(steps + 1);
    return Result::fail(quote(text) + " has " + count + " values, more than " +
                        std::to_string(kMaxRangeValues));
  }
  // In uint64 (wrapping) because i * step may pass INT64_MAX even though a + i * step <= b.
  for (std::uint64_t i = 0; i <= steps; ++i)
    values.push_back(static_cast<std::int64_t>(static_cast<std::uint64_t>(*a) +
                                               i * static_cast<std::uint64_t>(*step)));
  return Result{std::move(values), {}};
}

}  // namespace rkv
