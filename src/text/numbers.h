// Numbers from text: flags, case ids and config items all go through these, so each accepts the
// same forms everywhere and says what is wrong in the same words.
//
// Grammar (ASCII only, nothing around it: no spaces, no '+', no "0x"/octal/binary forms):
//   integer  = ["-"] digit {digit}           leading zeros are decimal: "010" is ten
//   unsigned = digit {digit}
//   real     = ["-"] mantissa [exponent]
//   mantissa = digit {digit} ["." {digit}] | "." digit {digit}
//   exponent = ("e" | "E") ["+" | "-"] digit {digit}
// A real must be finite and not so small that it rounds to zero ("1e400", "1e-400", "inf", "nan"
// and "0x1p3" are refused). Every value is range-checked; the bounds are inclusive unless said.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "text/parsed.h"

namespace rkv {

// Errors: "'x' is not an integer", "'70000' is out of range [0, 65535]", and for a value past
// 64 bits with no narrower bounds given, "'99999999999999999999' does not fit in 64 bits".
Parsed<std::int64_t> parse_int(std::string_view text,
                               std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                               std::int64_t hi = std::numeric_limits<std::int64_t>::max());

// Errors: "'-1' is not an unsigned integer", "'x' is out of range [0, hi]".
Parsed<std::uint64_t> parse_uint(std::string_view text,
                                 std::uint64_t hi = std::numeric_limits<std::uint64_t>::max());

// Whether a real's lower bound is itself allowed (a zero timeout would never stop: open).
enum class LowBound { closed, open };

// Errors: "'soon' is not a number", "'0' is out of range (0, 3600]".
Parsed<double> parse_real(std::string_view text, double lo, double hi,
                          LowBound low = LowBound::closed);

}  // namespace rkv
