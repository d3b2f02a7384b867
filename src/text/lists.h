// Lists and integer ranges in text: `--dtype bf16,fp16`, `--tokens 1,8,pow2:16:1024`, case ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/parsed.h"

namespace rkv {

// The parts of `text` between each `sep`, empty ones included ("a,,b" -> a, "", b; "" -> "").
std::vector<std::string> split(std::string_view text, char sep);

// A comma list whose every item is non-empty: "bf16,fp16". Error: "'bf16,,fp16' has an empty
// value" (also for "" and for a trailing comma). Items are taken as they are (no trimming).
Parsed<std::vector<std::string>> parse_list(std::string_view text);

// "a, b, c"
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

// A range yields at most this many values: a sweep axis of more is a typo (1:1000000 for
// 1:1000000:1000) and a plan too large to run, so it fails before any memory is spent on it.
inline constexpr std::size_t kMaxRangeValues = 4096;

// Integer values (each an integer of text/numbers.h):
//   "N"                  the one value N;
//   "a:b" or "a:b:step"  a, a+step, ... up to b inclusive (step > 0, default 1; a <= b);
//   "pow2:a:b"           the powers of two in [a, b] (at least one).
// Errors name the text: "'5:1' is not a range: start 5 is after end 1", "'1:100000' has 100000
// values, more than 4096". The range itself sets no bounds: callers check each value.
Parsed<std::vector<std::int64_t>> parse_int_range(std::string_view text);

}  // namespace rkv
