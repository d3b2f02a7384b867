// How `bench` times a case: the mode and the nvbench-style stopping rule. Every report row names
// the mode it was taken in; the defaults are the careful ones (see docs/methodology.md).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rkv {

// producer and producer_pdl time what a variant adds after a producer kernel that writes the
// case's q/k/v, in a CUDA graph; producer_pdl launches the variant's kernels with programmatic
// dependent launch (docs/methodology.md, "What PDL saves: the producer modes").
enum class TimingMode { cold, warm, graph, wall, producer, producer_pdl };
std::string to_string(TimingMode m);
std::optional<TimingMode> parse_timing_mode(const std::string& s);

// The modes whose samples are an added time (with the producer minus the producer alone), not a
// launch's own time: such a sample can be near zero or negative.
inline bool is_producer_mode(TimingMode m) {
  return m == TimingMode::producer || m == TimingMode::producer_pdl;
}
// The mode launches the timed kernels with programmatic dependent launch.
inline bool launches_with_pdl(TimingMode m) {
  return m == TimingMode::producer_pdl;
}

// The order of the variants within one sampling round (sampling_driver.h). `rotating` starts
// round r at variant r mod n, so each variant is the one sampled right after the SM clock probe
// equally often; `fixed` (every report written before the key existed) always started with the
// first variant, the fused kernel, which then carried whatever the probe left behind.
enum class SampleOrder { fixed, rotating };
inline std::string to_string(SampleOrder o) {
  return o == SampleOrder::fixed ? "fixed" : "rotating";
}
inline std::optional<SampleOrder> parse_sample_order(const std::string& s) {
  if (s == "fixed") return SampleOrder::fixed;
  if (s == "rotating") return SampleOrder::rotating;
  return std::nullopt;
}

// One range of token counts and the modes its cases are timed in (config key
// timing.modes_by_tokens, plan/token_modes.h): a sweep can time decode sizes in graph mode and
// prefill sizes cold. Both ends are inclusive.
struct TokenModes {
  static constexpr std::int64_t kNoMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t min_tokens = 1;
  std::int64_t max_tokens = kNoMax;  // kNoMax: no upper end
  std::vector<TimingMode> modes;
  bool operator==(const TokenModes& o) const {
    return min_tokens == o.min_tokens && max_tokens == o.max_tokens && modes == o.modes;
  }
};

struct TimingOptions {
  // With modes_by_tokens empty, every case is timed in every mode of `modes`. Otherwise each case
  // is timed in the modes of the one range that holds its token count, and `modes` is the union
  // of the ranges' modes in order of first use (the launch floors are measured for each).
  std::vector<TimingMode> modes{TimingMode::graph};
  std::vector<TokenModes> modes_by_tokens;  // sorted by min_tokens, never overlapping
  // Stopping rule, per variant (src/stats.h): at least min_samples samples and min_time_s of
  // measured time, then stop once the relative noise (IQR / median) is under max_noise
  // (`converged`), or once the median of the last samples stops moving (`stable`), or at
  // timeout_s (`timeout`).
  int min_samples = 10;
  double max_noise = 0.005;  // fraction (0.5 %)
  double min_time_s = 0.05;
  double timeout_s = 2.0;
  double warmup_s = 0.02;  // warm-up by time, with at least warmup_min launches
  int warmup_min = 3;
  // Launches captured per graph (graph mode: one sample = one replay; the producer modes: the
  // repetitions of [producer, variant] per graph).
  int graph_launches = 100;
  int wall_launches = 100;  // launches per host-clock sample (wall mode)
  int batch_launches = 20;  // launches per event pair in warm mode (one sample = batch mean)
  // Passes over the whole sweep. Each pass times every case afresh (new buffers, new graphs, the
  // stopping rule from the start), seconds apart; the statistics pool every pass's samples and
  // the speedup interval spans every pass's (stats.h, pooled_speedup). More than one pass is what
  // makes the interval cover run-to-run drift, not only the noise within one sampling burst.
  int passes = 1;
  SampleOrder order = SampleOrder::rotating;
  // The producer modes: MiB the producer streams from beyond L2 before it writes q/k/v, as a QKV
  // projection reads its weights at decode (reference/pdl_producer.h, ProducerRead). 0: the
  // producer only writes q/k/v (every report without the key).
  int producer_read_mib = 0;
};

}  // namespace rkv
