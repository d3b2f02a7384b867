#include "timing/cold_sampler.h"

#include "device/cuda_check.h"

namespace rkv {

double ColdSampler::sample(std::size_t index) {
  const TimedVariant& v = variants_.at(index);
  cuda_check(cudaMemsetAsync(flush_.get(), static_cast<int>(index & 0xff),
                             static_cast<std::size_t>(flush_.bytes()), stream_),
             "flushing L2");
  events_.start(stream_);
  launch_checked(v, stream_);
  events_.stop(stream_);
  return events_.elapsed_ms() * 1e3;
}

}  // namespace rkv
