#include "timing/graph_sampler.h"

namespace rkv {

GraphSampler::GraphSampler(cudaStream_t stream, EventPair& events, int graph_launches,
                           const std::vector<TimedVariant>& variants)
    : stream_(stream), events_(events), launches_(graph_launches) {
  for (const TimedVariant& v : variants)
    graphs_.push_back(std::make_unique<CapturedGraph>(stream, graph_launches, v.launch, v.name));
}

double GraphSampler::sample(std::size_t index) {
  events_.start(stream_);
  graphs_.at(index)->replay(stream_);
  events_.stop(stream_);
  return events_.elapsed_ms() * 1e3 / launches_;
}

}  // namespace rkv
