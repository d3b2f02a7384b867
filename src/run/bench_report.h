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

// The case's row in mode `mode` (index `mode_index` of the run's modes), from the passes it was
// timed in so far; `keep_samples` copies every raw sample into the variants (bench --samples).
// The speedup's interval is not final until set_speedup_intervals has seen the whole run.
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
