// The launch variants timed for every case: the fused kernel, the pair, and each kernel of the
// pair alone (so a user sees where the pair's time goes), on the output slots `slots` names. In
// the producer modes each variant also gets its producer (a copy of the case's pristine q/k/v
// into the variant's slot, DeviceCase::make_pristine_qkv first), and in producer_pdl its kernels
// are launched with programmatic dependent launch.
#pragma once

#include <vector>

#include "device/device_buffers.h"
#include "plan/timing_options.h"
#include "timing/sampler.h"

namespace rkv {

std::vector<TimedVariant> case_variants(const DeviceCase& dc, SlotAssignment slots,
                                        TimingMode mode = TimingMode::graph);

// How many variants case_variants gives: the size of one sampling round of a case.
inline constexpr int kCaseVariants = 4;

}  // namespace rkv
