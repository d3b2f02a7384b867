// Timing modes per token range (config key timing.modes_by_tokens): which modes a case is timed
// in when the mode depends on its size, e.g. graph below 2048 tokens, cold from 2048 up.
//
//   "timing": {"modes_by_tokens": [{"max_tokens": 1024, "modes": ["graph"]},
//                                  {"min_tokens": 2048, "modes": ["cold"]}]}
//
// Each range is inclusive at both ends (min_tokens defaults to 1, max_tokens to no limit); ranges
// may not overlap; every case of the sweep must fall in one (checked once the sweep is planned,
// uncovered_tokens). The key excludes `modes`; the report keeps the rule beside `modes`, which
// then holds the union.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/json_field.h"
#include "plan/case_spec.h"
#include "plan/timing_options.h"

namespace rkv {

// Reads the rule from a JSON array (a config's or a report's); throws JsonError naming the key
// path of the bad element ("timing.modes_by_tokens[1]: ranges 1-1024 and 512-4096 overlap").
// Sorts the ranges by min_tokens.
std::vector<TokenModes> read_token_modes(const JsonField& array);

// Sets `modes_by_tokens` and `modes` (the union, in order of first use) together.
void set_token_modes(TimingOptions& timing, std::vector<TokenModes> rule);

// The modes a case with `tokens` tokens is timed in: `modes` without a rule, else the modes of
// the range that holds it (empty when none does; the CLI refuses such a sweep before it runs).
const std::vector<TimingMode>& modes_for_tokens(const TimingOptions& timing, std::int64_t tokens);

// The smallest token count of `cases` that no range holds, or nullopt (always without a rule).
std::optional<std::int64_t> uncovered_tokens(const TimingOptions& timing,
                                             const std::vector<CaseSpec>& cases);

// "1-1024" / "2048+" / "8": a range as the messages and --dry-run write it.
std::string token_range_text(const TokenModes& r);

}  // namespace rkv
