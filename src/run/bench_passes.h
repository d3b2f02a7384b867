// The pass loop of `bench`: every case once, then every case again (pass-major), each pass with
// fresh buffers, the output slots swapped on odd passes, validation in the first pass only.
#pragma once

#include <vector>

#include "device/device_info_model.h"
#include "run/bench_case.h"
#include "run/run_request.h"
#include "timing/timer.h"

namespace rkv {

// Times `request.plan.cases` in `request.timing.passes` passes; stops early (leaving what was
// measured) when interrupted().
std::vector<BenchCase> run_bench_passes(const RunRequest& request, Timer& timer,
                                        const DeviceInfo& device);

}  // namespace rkv
