#include "timing/wall_sampler.h"

#include <chrono>

#include "device/cuda_check.h"

namespace rkv {

double WallSampler::sample(std::size_t index) {
  const TimedVariant& v = variants_.at(index);
  cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < launches_; ++k)
    launch_checked(v, stream_);
  cuda_check(cudaStreamSynchronize(stream_), "waiting for launches");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s * 1e6 / launches_;
}

}  // namespace rkv
