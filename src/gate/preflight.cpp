#include "gate/preflight.h"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <utility>

namespace rkv {
namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    out += (out.empty() ? "" : ", ") + p;
  return out;
}

template <class T>
void differ(std::vector<std::string>& out, const char* key, const T& b, const T& o) {
  if (b != o) out.push_back(fmt::format("{} {} vs {}", key, b, o));
}

bool times_a_producer_mode(const TimingOptions& t) {
  for (TimingMode m : t.modes)
    if (is_producer_mode(m)) return true;
  return false;
}

bool has_mode(const Report& r, const char* mode) {
  for (const CaseResult& c : r.cases)
    if (c.mode == mode) return true;
  return false;
}

std::vector<std::string> environment_differences(const DeviceInfo& b, const DeviceInfo& o) {
  std::vector<std::string> d;
  differ(d, "device", "'" + b.name + "'", "'" + o.name + "'");
  differ(d, "SMs", b.sm_count, o.sm_count);
  differ(d, "driver", b.driver_version, o.driver_version);
  differ(d, "CUDA runtime", b.runtime_version, o.runtime_version);
  return d;
}

std::vector<std::string> clock_differences(const DeviceInfo& b, const DeviceInfo& o) {
  std::vector<std::string> d;
  differ(d, "max SM clock MHz", b.sm_clock_max_mhz, o.sm_clock_max_mhz);
  differ(d, "memory clock MHz", b.mem_clock_mhz, o.mem_clock_mhz);
  // The copy bandwidth is measured, so it moves a little on every run; 5 % is not noise.
  if (b.copy_bandwidth_gbps > 0 && std::isfinite(o.copy_bandwidth_gbps) &&
      std::abs(o.copy_bandwidth_gbps / b.copy_bandwidth_gbps - 1) > 0.05)
    d.push_back(fmt::format("copy bandwidth {:.0f} vs {:.0f} GB/s", b.copy_bandwidth_gbps,
                            o.copy_bandwidth_gbps));
  return d;
}

}  // namespace

std::vector<std::string> timing_differences(const TimingOptions& b, const TimingOptions& o) {
  std::vector<std::string> d;
  differ(d, "min_samples", b.min_samples, o.min_samples);
  differ(d, "max_noise", b.max_noise, o.max_noise);
  differ(d, "min_time_s", b.min_time_s, o.min_time_s);
  differ(d, "timeout_s", b.timeout_s, o.timeout_s);
  differ(d, "warmup_s", b.warmup_s, o.warmup_s);
  differ(d, "warmup_min", b.warmup_min, o.warmup_min);
  differ(d, "graph_launches", b.graph_launches, o.graph_launches);
  differ(d, "wall_launches", b.wall_launches, o.wall_launches);
  differ(d, "batch_launches", b.batch_launches, o.batch_launches);
  differ(d, "passes", b.passes, o.passes);
  // A producer that streams weights is another producer: added times after it are not comparable
  // (it matters only where both runs timed a producer mode).
  if (times_a_producer_mode(b) && times_a_producer_mode(o))
    differ(d, "producer_read_mib", b.producer_read_mib, o.producer_read_mib);
  return d;
}

std::optional<std::string> first_duplicate(const Report& r) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const CaseResult& c : r.cases)
    if (!seen.emplace(c.id, c.mode).second)
      return c.id + " (" + (c.mode.empty() ? "no mode" : c.mode) + ")";
  return std::nullopt;
}

Preflight preflight(const Report& baseline, const Report& other, const std::string& what,
                    bool force) {
  Preflight p;
  auto refuse = [&](CompareExit code, std::string why) {
    p.refusal = code;
    p.message = std::move(why);
    return p;
  };
  // Duplicates are never forced: there is no right copy to judge.
  if (const auto d = first_duplicate(baseline))
    return refuse(CompareExit::usage, "the baseline holds case " + *d + " twice");
  if (const auto d = first_duplicate(other))
    return refuse(CompareExit::usage, "the " + what + " run holds case " + *d + " twice");

  const std::string forced = " (forced)";
  if (!baseline.complete) {
    const std::string why = "the baseline is incomplete (its run was interrupted)";
    if (!force) return refuse(CompareExit::usage, why + "; use --force to compare anyway");
    p.warnings.push_back(why + forced);
  }
  std::vector<std::string> timing = timing_differences(baseline.timing, other.timing);
  // Cold samples net of the event pair in one report and not in the other are ~1.4 us apart
  // on an H200 for the same kernel: not comparable (only matters when both timed cold mode).
  if (std::isfinite(baseline.device.cold_event_pair_us) !=
          std::isfinite(other.device.cold_event_pair_us) &&
      has_mode(baseline, "cold") && has_mode(other, "cold"))
    timing.push_back(std::string("cold samples ") +
                     (std::isfinite(baseline.device.cold_event_pair_us) ? "net of" : "include") +
                     " the event pair vs " +
                     (std::isfinite(other.device.cold_event_pair_us) ? "net of" : "include") +
                     " it");
  if (const auto& d = timing; !d.empty()) {
    const std::string why = "timing settings differ (baseline vs " + what + "): " + join(d);
    if (!force) return refuse(CompareExit::usage, why + "; use --force to compare anyway");
    p.warnings.push_back(why + forced);
  }
  if (const auto d = environment_differences(baseline.device, other.device); !d.empty()) {
    const std::string why = "environment differs (baseline vs " + what + "): " + join(d);
    if (!force)
      return refuse(CompareExit::environment,
                    why + "; measure a new baseline on this runner, or --force");
    p.warnings.push_back(why + forced + ": absolute times may not carry over");
  }
  if (const auto d = clock_differences(baseline.device, other.device); !d.empty())
    p.warnings.push_back("clocks differ (baseline vs " + what + "): " + join(d));
  return p;
}

}  // namespace rkv
