// The sampling driver: warm-up, the interleaving order and the stopping rule, for any Sampler.
// Host-only (it never touches CUDA itself), so the order and the stopping are unit-tested with a
// fake sampler.
//
// Warm-up: each variant alone, by time with a floor on the count (module load, clock ramp, graph
// upload); the samples are discarded. Then rounds: read the SM clock, then one sample of every
// variant that is not done, so the variants' samples alternate and a drift hits all of them
// alike. Round r starts at variant r mod n when the order is `rotating`, so no variant is always
// the one sampled right after the probe. After each sample the variant's StoppingRule decides
// whether it is done.
#pragma once

#include <functional>
#include <vector>

#include "plan/timing_options.h"
#include "stats/stats.h"
#include "timing/sampler.h"
#include "timing/variant_samples.h"

namespace rkv {

struct DriverParams {
  StoppingRule::Params rule;
  double warmup_s = 0.02;
  int warmup_min = 3;
  SampleOrder order = SampleOrder::rotating;
};

class SamplingDriver {
 public:
  // `sm_clock_mhz` is read once before every round; every sample of the round carries it.
  SamplingDriver(const DriverParams& params, std::function<double()> sm_clock_mhz);

  // Samples the `names.size()` variants of `sampler` until each one's rule is met: one pass's raw
  // samples, in the order of `names`.
  std::vector<VariantSamples> run(Sampler& sampler, const std::vector<std::string>& names) const;

 private:
  DriverParams params_;
  std::function<double()> sm_clock_mhz_;
};

}  // namespace rkv
