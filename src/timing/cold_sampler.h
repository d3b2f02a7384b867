// cold mode: overwrite a buffer of 2x the L2 size so none of the case's data is left in L2, then
// one event pair around one launch; sample = event time.
#pragma once

#include <vector>

#include "device/captured_graph.h"
#include "device/device_buffers.h"
#include "timing/sampler.h"

namespace rkv {

class ColdSampler : public Sampler {
 public:
  ColdSampler(cudaStream_t stream, EventPair& events, const DeviceBuffer& l2_flush,
              const std::vector<TimedVariant>& variants)
      : stream_(stream), events_(events), flush_(l2_flush), variants_(variants) {}
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return 1; }

 private:
  cudaStream_t stream_;
  EventPair& events_;
  const DeviceBuffer& flush_;
  const std::vector<TimedVariant>& variants_;
};

}  // namespace rkv
