#include "timing/sampling_driver.h"

#include <chrono>
#include <cmath>
#include <utility>

namespace rkv {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

SamplingDriver::SamplingDriver(const DriverParams& params, std::function<double()> sm_clock_mhz)
    : params_(params), sm_clock_mhz_(std::move(sm_clock_mhz)) {}

std::vector<VariantSamples> SamplingDriver::run(Sampler& sampler,
                                                const std::vector<std::string>& names) const {
  const std::size_t n = names.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    for (int k = 0; k < params_.warmup_min || seconds_since(t0) < params_.warmup_s; ++k)
      sampler.sample(i);
  }

  const StoppingRule rule(params_.rule);
  const int launches = sampler.launches_per_sample();
  std::vector<VariantSamples> out(n);
  std::vector<double> measured_s(n, 0.0);  // GPU time measured so far, for min_time
  for (std::size_t i = 0; i < n; ++i)
    out[i].variant = names[i];
  const auto t0 = Clock::now();
  bool all_done = n == 0;
  for (std::size_t round = 0; !all_done; ++round) {
    const double mhz = sm_clock_mhz_();
    all_done = true;
    const std::size_t first = params_.order == SampleOrder::rotating ? round % n : 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = (first + j) % n;
      VariantSamples& v = out[i];
      if (v.stop != StopReason::running) continue;
      const double us = sampler.sample(i);
      v.us.push_back(us);
      v.sm_clock_mhz.push_back(mhz);
      // A producer-mode sample is a difference of two replays: what the GPU measured is both
      // (twice the producer plus the added time), and the added time alone may be ~0 or negative.
      const double producer = sampler.last_producer_us();
      if (!std::isnan(producer)) v.producer_us.push_back(producer);
      const double gpu_us = std::isnan(producer) ? us : us + 2 * producer;
      measured_s[i] += gpu_us * 1e-6 * launches;
      v.stop = rule.decide(v.us, seconds_since(t0), measured_s[i]).reason;
      all_done = all_done && v.stop != StopReason::running;
    }
  }
  return out;
}

}  // namespace rkv
