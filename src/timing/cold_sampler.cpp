#include "timing/cold_sampler.h"

#include <stdexcept>
#include <string>

#include "device/cuda_check.h"

namespace rkv {

double ColdSampler::sample(std::size_t index) {
  const TimedVariant& v = variants_.at(index);
  constexpr int kAttempts = 3;
  for (int attempt = 1;; ++attempt) {
    hold_.hold(stream_);
    flush_.queue(stream_);
    cuda_check(warm_translations(v.buffers, stream_), "warming the page translations of " + v.name);
    events_.start(stream_);
    launch_checked(v, stream_);
    events_.stop(stream_);
    hold_.release();
    const double us = events_.elapsed_ms() * 1e3;
    // A hold that gave up let the flush and launch start while the host was still queueing:
    // that sample may include the host, so it is taken again.
    if (!hold_.timed_out()) return us - event_pair_us_;
    if (attempt == kAttempts)
      throw std::runtime_error("cold mode: the stream hold timed out " + std::to_string(kAttempts) +
                               " times in a row sampling " + v.name +
                               " (the host did not queue one flush and one launch within 100 ms)");
  }
}

}  // namespace rkv
