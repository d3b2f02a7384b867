// Report assembly for `bench`: a case's row in one timing mode from its passes' raw samples
// (pooled statistics, per-pass statistics, the speedup and its interval, bandwidth figures).
#pragma once

#include <cstddef>
#include <vector>

#include "device/device_info_model.h"
#include "plan/timing_options.h"
#include "report/report.h"
#include "run/bench_case.h"

namespace rkv {

// The case's row in mode `modes[mode_index]`, from the passes it was timed in so far.
CaseResult case_row(const BenchCase& c, std::size_t mode_index, TimingMode mode,
                    const DeviceInfo& device);

// Appends every case's rows to `report`: one per mode, or one row saying why for a case that
// failed; cases the sweep never reached (interrupted) are left out.
void add_bench_rows(Report& report, const std::vector<BenchCase>& cases,
                    const std::vector<TimingMode>& modes);

}  // namespace rkv
