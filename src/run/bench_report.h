// Report assembly for `bench`: a case's row in one timing mode from its passes' raw samples
// (pooled statistics, per-pass statistics, the output slot of every pass, the raw samples when
// asked for, the speedup), then the run-wide step that sets every speedup's interval.
#pragma once

#include <cstddef>
#include <vector>

#include "device/device_info_model.h"
#include "plan/timing_options.h"
#include "report/report.h"
#include "run/bench_case.h"

namespace rkv {

// The producer modes time what a variant adds over the producer, which can be ~0 (PDL hid it) or
// negative: a ratio of two added times is only made when every lower quartile of both (pooled
// and per pass) is at least this, in microseconds. Ten times what two cudaEvent readings (about
// 0.5 us each) resolve over a graph of 100 launches; below it the ratio says how much of a
// prologue PDL hid rather than what either variant costs, and one tenth of a microsecond moves
// it by whole multiples. docs/methodology.md, "What PDL saves: the producer modes".
inline constexpr double kMinAddedUsForSpeedup = 0.1;

// Whether an added time (a producer-mode variant) is large enough to divide by.
bool added_time_resolved(const VariantResult& v);

// The case's row in mode `mode` (index `mode_index` of the run's modes), from the passes it was
// timed in so far; `keep_samples` copies every raw sample into the variants (bench --samples).
// The speedup's interval is not final until set_speedup_intervals has seen the whole run. In the
// producer modes the speedup is added pair / added fused, made only when both are resolved, and
// fused_gbps / fused_pct_of_bandwidth stay 0 (bytes over an added time mean nothing).
CaseResult case_row(const BenchCase& c, std::size_t mode_index, TimingMode mode,
                    const DeviceInfo& device, bool keep_samples);

// Appends every case's rows to `report`: one per mode the case was timed in (its token range's
// when timing.modes_by_tokens is set), or one row saying why for a case that failed; cases the
// sweep never reached (interrupted) are left out. Then sets the intervals.
void add_bench_rows(Report& report, const std::vector<BenchCase>& cases,
                    const TimingOptions& timing, bool keep_samples);

// Sets every speedup's lo/hi by the pass-spread rule (stats/speedup_interval.h), each mode's
// cases shrunk towards that mode's typical pass spread in this run.
void set_speedup_intervals(std::vector<CaseResult>& cases);

}  // namespace rkv
