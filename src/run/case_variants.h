// The launch variants timed for every case: the fused kernel, the pair, and each kernel of the
// pair alone (so a user sees where the pair's time goes), on the output slots `slots` names. Every
// mode needs the case's pristine q/k/v (DeviceCase::make_pristine_qkv first): in the producer
// modes each variant gets its producer (a copy of them into the variant's slot before every
// launch; in producer_pdl its kernels are launched with programmatic dependent launch), in the
// other modes the variants of one slot share that slot's InputRefresh (timing/input_refresh.h).
// With `weights` (TimingOptions::producer_read_mib) every producer first streams the ring's next
// window, so the producer lasts as long as a projection that reads that many bytes; `weights`
// must outlive the variants.
#pragma once

#include <memory>
#include <vector>

#include "device/device_buffers.h"
#include "plan/timing_options.h"
#include "timing/producer_weights.h"
#include "timing/sampler.h"

namespace rkv {

std::vector<TimedVariant> case_variants(const DeviceCase& dc, SlotAssignment slots,
                                        TimingMode mode = TimingMode::graph,
                                        ProducerWeights* weights = nullptr);

// The refresh of one slot's in-place inputs from the case's pristine q/k/v (`dc` must outlive
// it): for anything that launches the variants many times outside the Timer (gbench, profile).
std::shared_ptr<InputRefresh> input_refresh_of(const DeviceCase& dc, OutputSlot slot);

// How many variants case_variants gives: the size of one sampling round of a case.
inline constexpr int kCaseVariants = 4;

}  // namespace rkv
