// What a report says must be possible, not only well-formed: `compare` gates CI on these numbers,
// so a report that contradicts itself (an id that is not its spec's, a first quartile above the
// median, a negative count, a speedup interval with lo > hi, one case twice) is refused with one
// line naming the key path, never compared. The reader calls these after reading each part.
#pragma once

#include <vector>

#include "json/json_field.h"
#include "report/report.h"

namespace rkv {

// Counts and times not negative; min <= q1 <= median <= q3 <= max where all are numbers (an
// empty summary may hold NaN, written as null). `added`: the summary of a producer-mode variant,
// whose samples are differences (added time over the producer alone): its times may be negative
// (the standard deviation may not).
void check_summary(const JsonField& j, const Summary& s, bool added = false);
// median, lo, hi and every pass median positive; lo <= median <= hi.
void check_speedup(const JsonField& j, const SpeedupEstimate& s);
// id equals spec's id; the spec is a case the planner would run (so the schema's minimums of
// rot_dim, tokens and block_size hold); mode is "" or a timing mode; counts, bytes and rates not
// negative.
void check_case(const JsonField& j, const CaseResult& c);
// No (id, mode) twice: "cases[7]: repeats cases[2] (id '...', mode 'graph')".
void check_unique_cases(const JsonField& cases, const std::vector<CaseResult>& read);
// With timing.modes_by_tokens, every timed row's mode is one of its token range's modes:
// "cases[3].mode: 'cold' is not a mode of the token range 1-1024 (graph)".
void check_case_modes(const JsonField& cases, const std::vector<CaseResult>& read,
                      const TimingOptions& timing);
// The device's launch floors and copy bandwidth not negative; the timing settings are ones the
// tool accepts (command's enum and sm_count/l2_bytes are check_report_constraints').
void check_report_fields(const JsonField& j, const Report& r);

}  // namespace rkv
