// producer and producer_pdl modes: what a variant adds when it runs right after the kernel that
// writes its q/k/v (a bandwidth-bound stand-in for the QKV projection, TimedVariant::producer).
//
// Per variant two CUDA graphs are captured when the sampler is made: `alone`, graph_launches
// launches of the producer, and `with`, graph_launches repetitions of [producer, variant]. One
// sample holds the stream (stream_hold.h), queues an event pair around a replay of `alone` and
// another around a replay of `with`, releases the stream, and returns
//   (t_with - t_alone) / graph_launches,
// the time the variant adds per launch over the producer alone, in microseconds. Both replays run
// back to back on the GPU inside one sample, so a drift of clocks or of the memory system hits
// both alike and cancels in the difference. In producer_pdl mode the variant's kernels are
// launched with programmatic dependent launch (the caller's launch function sets it); the
// sampler then checks that the capture kept the programmatic edges, and refuses the mode with one
// line if it did not.
#pragma once

#include <memory>
#include <vector>

#include "device/captured_graph.h"
#include "timing/sampler.h"
#include "timing/stream_hold.h"

namespace rkv {

class ProducerSampler : public Sampler {
 public:
  // Throws std::invalid_argument when a variant has no producer, CudaError when a capture fails,
  // and std::runtime_error when `expect_pdl` is set but a `with` graph has no programmatic edge.
  ProducerSampler(cudaStream_t stream, EventPair& events, StreamHold& hold, int graph_launches,
                  bool expect_pdl, const std::vector<TimedVariant>& variants);
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return launches_; }
  double last_producer_us() const override { return last_producer_us_; }

 private:
  struct Graphs {
    std::unique_ptr<CapturedGraph> alone, with;
  };
  cudaStream_t stream_;
  EventPair& with_events_;  // the Timer's pair, around the `with` replay
  EventPair alone_events_;  // a second pair, so both replays are queued before either is read
  StreamHold& hold_;
  int launches_;
  std::vector<std::string> names_;
  std::vector<Graphs> graphs_;  // one entry per variant
  double last_producer_us_ = 0;
};

}  // namespace rkv
