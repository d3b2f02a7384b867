#include "plan/timing_fields.h"

#include <cstdint>
#include <sstream>

#include "plan/sweep_axes.h"
#include "text/lists.h"
#include "text/numbers.h"
#include "text/quote.h"

namespace rkv {

const std::vector<TimingFieldInfo>& timing_fields() {
  static const std::vector<TimingFieldInfo> fields{
      {TimingField::modes, "modes", "--mode", "LIST",
       "timing modes: cold, warm, graph, wall, producer, producer_pdl"},
      {TimingField::min_samples, "min_samples", "--min-samples", "INT",
       "samples per variant before the noise target may stop sampling"},
      {TimingField::max_noise, "max_noise", "--max-noise", "PERCENT",
       "stop once the relative noise (IQR / median) is under this, in percent"},
      {TimingField::min_time_s, "min_time_s", "--min-time", "SECONDS",
       "measured time per variant before the noise target may stop sampling"},
      {TimingField::timeout_s, "timeout_s", "--timeout", "SECONDS",
       "stop sampling a variant after this long, converged or not"},
      {TimingField::warmup_s, "warmup_s", "--warmup", "SECONDS", "warm-up time per case"},
      {TimingField::warmup_min, "warmup_min", "--warmup-min", "INT", "warm-up launches at least"},
      {TimingField::graph_launches, "graph_launches", "--graph-launches", "INT",
       "launches captured per CUDA graph (graph mode; [producer, variant] pairs in the producer "
       "modes)"},
      {TimingField::wall_launches, "wall_launches", "--wall-launches", "INT",
       "launches per host-clock sample (wall mode)"},
      {TimingField::batch_launches, "batch_launches", "--batch-launches", "INT",
       "launches per event pair (warm mode)"},
      {TimingField::passes, "passes", "--passes", "INT",
       "passes over the sweep, pooled; the speedup interval spans every pass"},
      {TimingField::producer_read_mib, "producer_read_mib", "--producer-read-mib", "MIB",
       "producer modes: MiB of stand-in weights the producer streams from beyond L2 before it "
       "writes q/k/v, as a QKV projection does at decode (0: it only writes q/k/v)"},
  };
  return fields;
}

std::optional<std::string> set_timing_field(TimingOptions& timing, TimingField field,
                                            const std::string& text) {
  auto integer = [&](int* dst, std::int64_t lo, std::int64_t hi) -> std::optional<std::string> {
    const Parsed<std::int64_t> v = parse_int(text, lo, hi);
    if (!v) return v.error;
    *dst = static_cast<int>(*v);
    return std::nullopt;
  };
  // `scale` turns the text's unit into TimingOptions' (percent to a fraction for max_noise).
  auto real = [&](double* dst, double lo, LowBound low, double hi,
                  double scale) -> std::optional<std::string> {
    const Parsed<double> v = parse_real(text, lo, hi, low);
    if (!v) return v.error;
    *dst = *v * scale;
    return std::nullopt;
  };
  switch (field) {
    case TimingField::modes: {
      const Parsed<std::vector<std::string>> items = parse_list(text);
      if (!items) return items.error;
      std::vector<TimingMode> modes;
      for (const std::string& item : *items) {
        const auto m = parse_timing_mode(item);
        if (!m)
          return quote(item) + " is not a timing mode (one of " + join(timing_mode_names()) + ")";
        bool dup = false;
        for (TimingMode seen : modes)
          dup = dup || seen == *m;
        if (!dup) modes.push_back(*m);
      }
      timing.modes = modes;
      timing.modes_by_tokens.clear();  // one list of modes for every case replaces a rule
      return std::nullopt;
    }
    case TimingField::min_samples:
      return integer(&timing.min_samples, 1, 1000000);
    // A zero noise target or timeout would never stop sampling: their low end is open.
    case TimingField::max_noise:
      return real(&timing.max_noise, 0, LowBound::open, 100, 0.01);
    case TimingField::min_time_s:
      return real(&timing.min_time_s, 0, LowBound::closed, 3600, 1);
    case TimingField::timeout_s:
      return real(&timing.timeout_s, 0, LowBound::open, 3600, 1);
    case TimingField::warmup_s:
      return real(&timing.warmup_s, 0, LowBound::closed, 60, 1);
    case TimingField::warmup_min:
      return integer(&timing.warmup_min, 0, 1000000);
    case TimingField::graph_launches:
      return integer(&timing.graph_launches, 1, 10000);
    case TimingField::wall_launches:
      return integer(&timing.wall_launches, 1, 1000000);
    case TimingField::batch_launches:
      return integer(&timing.batch_launches, 1, 1000000);
    case TimingField::passes:
      return integer(&timing.passes, 1, 100);
    case TimingField::producer_read_mib:
      return integer(&timing.producer_read_mib, 0, 16384);
  }
  return std::string("unknown timing setting");
}

std::optional<std::string> timing_problem(const TimingOptions& timing) {
  if (timing.timeout_s < timing.min_time_s) {
    std::ostringstream s;
    s << "timeout " << timing.timeout_s << " s is shorter than min time " << timing.min_time_s
      << " s";
    return s.str();
  }
  return std::nullopt;
}

std::string timing_field_text(const TimingOptions& t, TimingField f) {
  std::ostringstream s;
  switch (f) {
    case TimingField::modes: {
      std::vector<std::string> names;
      for (TimingMode m : t.modes)
        names.push_back(to_string(m));
      s << join(names, ",");
      break;
    }
    case TimingField::min_samples:
      s << t.min_samples;
      break;
    case TimingField::max_noise:
      s << t.max_noise * 100;
      break;
    case TimingField::min_time_s:
      s << t.min_time_s;
      break;
    case TimingField::timeout_s:
      s << t.timeout_s;
      break;
    case TimingField::warmup_s:
      s << t.warmup_s;
      break;
    case TimingField::warmup_min:
      s << t.warmup_min;
      break;
    case TimingField::graph_launches:
      s << t.graph_launches;
      break;
    case TimingField::wall_launches:
      s << t.wall_launches;
      break;
    case TimingField::batch_launches:
      s << t.batch_launches;
      break;
    case TimingField::passes:
      s << t.passes;
      break;
    case TimingField::producer_read_mib:
      s << t.producer_read_mib;
      break;
  }
  return s.str();
}

}  // namespace rkv
