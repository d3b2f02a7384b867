// The raw samples of one variant from one pass, and the statistics made from several passes of
// them. Host-only, so the pooling is tested without a GPU.
#pragma once

#include <string>
#include <vector>

#include "stats/stats.h"
#include "timing/variant_result.h"

namespace rkv {

struct VariantSamples {
  std::string variant;
  std::vector<double> us;            // per launch, in sampling order
  std::vector<double> sm_clock_mhz;  // the SM clock measured right before each sample
  StopReason stop = StopReason::running;
  // The producer modes: the producer-alone time per launch each sample subtracted; empty in the
  // other modes.
  std::vector<double> producer_us;
};

// A sample whose SM clock is below this fraction of the device's maximum counts as throttled.
inline constexpr double kThrottleFraction = 0.9;

// One variant's result from its passes (all of the same variant, in pass order): statistics of
// the pooled samples, each pass's own statistics, the least settled stop reason of any pass
// (timeout over stable over converged), the throttled samples of all passes, and in the producer
// modes the statistics of the pooled producer-alone times.
VariantResult summarize_passes(const std::vector<VariantSamples>& passes, int sm_clock_max_mhz);

}  // namespace rkv
