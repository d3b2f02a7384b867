#include "timing/warm_sampler.h"

namespace rkv {

double WarmSampler::sample(std::size_t index) {
  const TimedVariant& v = variants_.at(index);
  events_.start(stream_);
  for (int k = 0; k < batch_; ++k)
    launch_checked(v, stream_);
  events_.stop(stream_);
  return events_.elapsed_ms() * 1e3 / batch_;
}

}  // namespace rkv
