// warm mode: one event pair around `batch_launches` back-to-back launches over the same buffers;
// sample = event time / batch_launches. Caches stay as the previous launch left them.
#pragma once

#include <vector>

#include "device/captured_graph.h"
#include "timing/sampler.h"

namespace rkv {

class WarmSampler : public Sampler {
 public:
  WarmSampler(cudaStream_t stream, EventPair& events, int batch_launches,
              const std::vector<TimedVariant>& variants)
      : stream_(stream), events_(events), batch_(batch_launches), variants_(variants) {}
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return batch_; }

 private:
  cudaStream_t stream_;
  EventPair& events_;
  int batch_;
  const std::vector<TimedVariant>& variants_;
};

}  // namespace rkv
