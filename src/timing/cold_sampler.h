// cold mode: the GPU time of one launch on an L2 that holds none of the case's data and no dirty
// line. The stream is held (stream_hold.h) while the L2 flush (l2_flush.h), the touch that puts
// the variant's page translations back (page_translations.h), the start event, the launch and
// the stop event are queued; then it is released, so they run back to back on the GPU
// and the host's launch overhead is outside the timed window. Sample = event time less
// `event_pair_us`, the same window with nothing between the events (Timer measures it once per
// run), so that a sample is the kernel's time, as a profiler sees it, and not the events' too.
#pragma once

#include <vector>

#include "device/captured_graph.h"
#include "timing/l2_flush.h"
#include "timing/sampler.h"
#include "timing/stream_hold.h"

namespace rkv {

class ColdSampler : public Sampler {
 public:
  ColdSampler(cudaStream_t stream, EventPair& events, StreamHold& hold, const L2Flush& flush,
              const std::vector<TimedVariant>& variants, double event_pair_us)
      : stream_(stream),
        events_(events),
        hold_(hold),
        flush_(flush),
        variants_(variants),
        event_pair_us_(event_pair_us) {}
  // Throws when the hold timed out on three attempts in a row (the host could not queue one
  // flush and one launch within the hold's timeout).
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return 1; }

 private:
  cudaStream_t stream_;
  EventPair& events_;
  StreamHold& hold_;
  const L2Flush& flush_;
  const std::vector<TimedVariant>& variants_;
  double event_pair_us_;
};

}  // namespace rkv
