// graph mode: one event pair around one replay of a CUDA graph holding `graph_launches` launches
// of the variant; sample = event time / graph_launches. The graphs are captured and instantiated
// when the sampler is made, before any warm-up.
#pragma once

#include <memory>
#include <vector>

#include "device/captured_graph.h"
#include "timing/sampler.h"

namespace rkv {

class GraphSampler : public Sampler {
 public:
  GraphSampler(cudaStream_t stream, EventPair& events, int graph_launches,
               const std::vector<TimedVariant>& variants);
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return launches_; }

 private:
  cudaStream_t stream_;
  EventPair& events_;
  int launches_;
  std::vector<std::unique_ptr<CapturedGraph>> graphs_;  // one per variant
};

}  // namespace rkv
