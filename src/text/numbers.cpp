#include "text/numbers.h"

#include <charconv>
#include <sstream>
#include <system_error>

#include "text/quote.h"

namespace rkv {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

// The value of a run of digits, or nothing when it does not fit in 64 bits.
std::optional<std::uint64_t> digits_value(std::string_view digits) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t v = 0;
  for (char c : digits) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (kMax - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

template <class T>
std::string int_range_text(T lo, T hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// real = ["-"] (digits ["." digits*] | "." digits) [("e"|"E") ["+"|"-"] digits]
bool is_plain_real(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && is_digit(s[i]))
      ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t mantissa_digits = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa_digits += digits();
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

}  // namespace

Parsed<std::int64_t> parse_int(std::string_view text, std::int64_t lo, std::int64_t hi) {
  using Result = Parsed<std::int64_t>;
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (!all_digits(digits)) return Result::fail(quote(text) + " is not an integer");
  constexpr std::uint64_t kMaxMagnitude = std::uint64_t{1} << 63;  // |INT64_MIN|
  const std::optional<std::uint64_t> magnitude = digits_value(digits);
  const bool fits =
      magnitude && (negative ? *magnitude <= kMaxMagnitude : *magnitude < kMaxMagnitude);
  const bool full_range = lo == std::numeric_limits<std::int64_t>::min() &&
                          hi == std::numeric_limits<std::int64_t>::max();
  if (!fits && full_range) return Result::fail(quote(text) + " does not fit in 64 bits");
  std::int64_t v = 0;
  if (fits)  // negate in unsigned arithmetic: -2^63 has no positive int64 counterpart
    v = negative ? static_cast<std::int64_t>(~*magnitude + 1)
                 : static_cast<std::int64_t>(*magnitude);
  if (!fits || v < lo || v > hi)
    return Result::fail(quote(text) + " is out of range " + int_range_text(lo, hi));
  return Result{v, {}};
}

Parsed<std::uint64_t> parse_uint(std::string_view text, std::uint64_t hi) {
  using Result = Parsed<std::uint64_t>;
  if (!all_digits(text)) return Result::fail(quote(text) + " is not an unsigned integer");
  const std::optional<std::uint64_t> v = digits_value(text);
  if (!v || *v > hi)
    return Result::fail(quote(text) + " is out of range " + int_range_text<std::uint64_t>(0, hi));
  return Result{*v, {}};
}

Parsed<double> parse_real(std::string_view text, double lo, double hi, LowBound low) {
  using Result = Parsed<double>;
  if (!is_plain_real(text)) return Result::fail(quote(text) + " is not a number");
  // The grammar is checked above, so from_chars sees no "inf", "nan" or hex; it never reads the
  // locale, and reports both overflow (1e400) and underflow to zero (1e-400) as out of range.
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  std::ostringstream range;
  range << (low == LowBound::open ? "(" : "[") << lo << ", " << hi << "]";
  if (ec == std::errc::result_out_of_range)
    return Result::fail(quote(text) + " is out of range " + range.str() +
                        " (too large or too small for a double)");
  if (ec != std::errc() || end != text.data() + text.size())
    return Result::fail(quote(text) + " is not a number");
  if ((low == LowBound::open ? v <= lo : v < lo) || v > hi)
    return Result::fail(quote(text) + " is out of range " + range.str());
  return Result{v, {}};
}

}  // namespace rkv
