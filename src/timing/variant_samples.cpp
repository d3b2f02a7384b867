#include "timing/variant_samples.h"

#include <algorithm>
#include <stdexcept>

namespace rkv {

VariantResult summarize_passes(const std::vector<VariantSamples>& passes, int sm_clock_max_mhz) {
  if (passes.empty()) throw std::invalid_argument("summarize_passes: no passes");
  VariantResult r;
  r.variant = passes.front().variant;
  std::vector<double> pooled, clocks, producer;
  StopReason stop = StopReason::running;
  for (const VariantSamples& p : passes) {
    if (p.variant != r.variant)
      throw std::invalid_argument("summarize_passes: passes of " + r.variant + " and " + p.variant);
    pooled.insert(pooled.end(), p.us.begin(), p.us.end());
    clocks.insert(clocks.end(), p.sm_clock_mhz.begin(), p.sm_clock_mhz.end());
    producer.insert(producer.end(), p.producer_us.begin(), p.producer_us.end());
    r.passes.push_back(summarize(p.us));
    // The enum runs from most to least settled: running < converged < stable < timeout.
    stop = std::max(stop, p.stop);
  }
  r.us = summarize(pooled);
  r.stop_reason = to_string(stop);
  r.sm_clock_mhz_median = summarize(clocks).median;
  if (!producer.empty()) r.producer_us = summarize(producer);
  for (double c : clocks)
    r.throttled_samples += c < kThrottleFraction * sm_clock_max_mhz;
  return r;
}

}  // namespace rkv
