// What the timing layer hands up for one variant of one case in one mode: the pooled statistics
// and each pass's own. Plain data, host-only; the report layer serialises it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stats/stats.h"

namespace rkv {

// One variant's timing in one mode: fused, pair (rope then cache_write, back to back), rope,
// cache_write. Samples are per launch, in microseconds; in the producer modes each sample is the
// time the variant added over the producer alone (it may be near zero or negative).
struct VariantResult {
  std::string variant;
  Summary us;
  std::string stop_reason;    // to_string(StopReason): converged / stable / timeout
  int throttled_samples = 0;  // samples taken while the SM clock was below its maximum
  double sm_clock_mhz_median = 0;
  // Each pass's own statistics (TimingOptions::passes), in pass order; `us` pools them. Empty in
  // reports written before passes existed.
  std::vector<Summary> passes;
  // Which output slot ("a" or "b", device_buffers.h) the variant wrote in each pass; empty in
  // reports written before the key existed.
  std::vector<std::string> output_slots;
  // bench --samples: every raw sample, [pass][sample] in sampling order, each in microseconds per
  // launch (one sample = 1 launch in cold mode, batch_launches in warm, one graph replay of
  // graph_launches in graph, wall_launches in wall). Empty unless asked for.
  std::vector<std::vector<double>> raw_us;
  // The producer modes: the producer-alone time per launch that the samples subtracted, pooled
  // over every pass (each sample's own, so a reader sees what the subtraction removed). Absent
  // in the other modes.
  std::optional<Summary> producer_us;
};

}  // namespace rkv
