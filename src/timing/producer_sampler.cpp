#include "timing/producer_sampler.h"

#include <stdexcept>
#include <string>

namespace rkv {

ProducerSampler::ProducerSampler(cudaStream_t stream, EventPair& events, StreamHold& hold,
                                 int graph_launches, bool expect_pdl,
                                 const std::vector<TimedVariant>& variants)
    : stream_(stream), with_events_(events), hold_(hold), launches_(graph_launches) {
  for (const TimedVariant& v : variants) {
    if (!v.producer)
      throw std::invalid_argument("producer mode: variant " + v.name + " has no producer");
    const auto producer = v.producer;
    const auto launch = v.launch;
    const auto producer_then_variant = [producer, launch](cudaStream_t s) {
      const cudaError_t e = producer(s);
      return e != cudaSuccess ? e : launch(s);
    };
    Graphs g;
    g.alone = std::make_unique<CapturedGraph>(stream, graph_launches, producer,
                                              "the producer of " + v.name);
    g.with = std::make_unique<CapturedGraph>(stream, graph_launches, producer_then_variant,
                                             "the producer and " + v.name);
    if (expect_pdl && g.with->programmatic_edges() == 0)
      throw std::runtime_error(
          "producer_pdl mode: capturing the producer and " + v.name +
          " into a CUDA graph kept no programmatic (PDL) edge; this driver does not turn PDL "
          "launches into graph edges (CUDA 12.3 or later is needed)");
    names_.push_back(v.name);
    graphs_.push_back(std::move(g));
  }
}

double ProducerSampler::sample(std::size_t index) {
  const Graphs& g = graphs_.at(index);
  constexpr int kAttempts = 3;
  for (int attempt = 1;; ++attempt) {
    hold_.hold(stream_);
    alone_events_.start(stream_);
    g.alone->replay(stream_);
    alone_events_.stop(stream_);
    with_events_.start(stream_);
    g.with->replay(stream_);
    with_events_.stop(stream_);
    hold_.release();
    const double alone_us = alone_events_.elapsed_ms() * 1e3 / launches_;
    const double with_us = with_events_.elapsed_ms() * 1e3 / launches_;
    // A hold that gave up let the first replay start from an idle GPU while the host was still
    // queueing, which the second replay would not: the pair is taken again.
    if (!hold_.timed_out()) {
      last_producer_us_ = alone_us;
      return with_us - alone_us;
    }
    if (attempt == kAttempts)
      throw std::runtime_error("producer mode: the stream hold timed out " +
                               std::to_string(kAttempts) + " times in a row sampling " +
                               names_.at(index) +
                               " (the host did not queue two replays in 100 ms)");
  }
}

}  // namespace rkv
