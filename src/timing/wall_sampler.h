// wall mode: synchronize, read the host's steady clock, make `wall_launches` launches,
// synchronize, read the clock; sample = elapsed / wall_launches. What a Python caller sees, host
// launch overhead included.
#pragma once

#include <vector>

#include "timing/sampler.h"

namespace rkv {

class WallSampler : public Sampler {
 public:
  WallSampler(cudaStream_t stream, int wall_launches, const std::vector<TimedVariant>& variants)
      : stream_(stream), launches_(wall_launches), variants_(variants) {}
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return launches_; }

 private:
  cudaStream_t stream_;
  int launches_;
  const std::vector<TimedVariant>& variants_;
};

}  // namespace rkv
