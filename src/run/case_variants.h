// The launch variants timed for every case: the fused kernel, the pair, and each kernel of the
// pair alone (so a user sees where the pair's time goes), on the output slots `slots` names.
#pragma once

#include <vector>

#include "device/device_buffers.h"
#include "timing/sampler.h"

namespace rkv {

std::vector<TimedVariant> case_variants(const DeviceCase& dc, SlotAssignment slots);

// How many variants case_variants gives: the size of one sampling round of a case.
inline constexpr int kCaseVariants = 4;

}  // namespace rkv
