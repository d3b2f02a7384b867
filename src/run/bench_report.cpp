#include "run/bench_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plan/token_modes.h"
#include "stats/speedup_interval.h"

namespace rkv {
namespace {

// Which slot `variant` wrote under `slots`: the fused kernel its own, the pair's kernels the
// pair's.
const char* slot_of(const std::string& variant, SlotAssignment slots) {
  return to_string(variant == to_string(Variant::fused) ? slots.fused : slots.pair);
}

// The median over the passes of one of a case's per-pass floors ([mode][pass]); none where that
// mode measured none.
std::optional<double> median_of_passes(const std::vector<std::vector<double>>& by_mode,
                                       std::size_t mode_index) {
  if (mode_index >= by_mode.size() || by_mode[mode_index].empty()) return std::nullopt;
  std::vector<double> values = by_mode[mode_index];
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, 0.5);
}

}  // namespace

bool added_time_resolved(const VariantResult& v) {
  if (!(v.us.q1 >= kMinAddedUsForSpeedup)) return false;
  for (const Summary& p : v.passes)
    if (!(p.q1 >= kMinAddedUsForSpeedup)) return false;
  return true;
}

CaseResult case_row(const BenchCase& c, std::size_t mode_index, TimingMode mode,
                    const DeviceInfo& device, bool keep_samples) {
  CaseResult r = c.base;
  r.mode = to_string(mode);
  if (!c.timed || mode_index >= c.samples.size() || c.samples[mode_index].empty()) return r;
  const auto& passes = c.samples[mode_index];
  if (keep_samples) r.buffer_addresses = c.addresses;
  for (std::size_t v = 0; v < passes.front().size(); ++v) {
    std::vector<VariantSamples> of_variant;
    for (const auto& pass : passes)
      of_variant.push_back(pass[v]);
    VariantResult result = summarize_passes(of_variant, device.sm_clock_max_mhz);
    for (std::size_t p = 0; p < passes.size() && p < c.slots.size(); ++p)
      result.output_slots.push_back(slot_of(result.variant, c.slots[p]));
    if (keep_samples)
      for (const VariantSamples& s : of_variant)
        result.raw_us.push_back(s.us);
    r.variants.push_back(std::move(result));
  }
  r.floor_us = static_cast<double>(r.min_bytes) / (device.copy_bandwidth_gbps * 1e3);
  r.producer_floor_us = median_of_passes(c.producer_floor_us, mode_index);
  r.producer_copy_floor_us = median_of_passes(c.producer_copy_floor_us, mode_index);
  const VariantResult* fused = r.find_variant(Variant::fused);
  const VariantResult* pair = r.find_variant(Variant::pair);
  const bool added = is_producer_mode(mode);
  if (fused != nullptr && fused->us.median > 0 && !added) {
    r.fused_gbps = static_cast<double>(r.min_bytes) / (fused->us.median * 1e3);
    r.fused_pct_of_bandwidth = 100.0 * r.fused_gbps / device.copy_bandwidth_gbps;
  }
  if (fused != nullptr && pair != nullptr &&
      (!added || (added_time_resolved(*fused) && added_time_resolved(*pair))))
    r.speedup = pooled_speedup(pair->us, fused->us, pair->passes, fused->passes);
  return r;
}

void set_speedup_intervals(std::vector<CaseResult>& cases) {
  std::map<std::string, std::vector<std::vector<double>>> by_mode;
  for (const CaseResult& c : cases)
    if (c.speedup) by_mode[c.mode].push_back(c.speedup->pass_medians);
  const IntervalRule rule;
  for (CaseResult& c : cases)
    if (c.speedup)
      apply_interval_rule(*c.speedup, typical_pass_variance(by_mode[c.mode]), c.spec.tokens, rule);
}

void add_bench_rows(Report& report, const std::vector<BenchCase>& cases,
                    const TimingOptions& timing, bool keep_samples) {
  for (const BenchCase& c : cases) {
    if (c.base.id.empty()) continue;                 // interrupted before this case's first pass
    if (c.base.validation == Disposition::failed) {  // threw: one row saying why
      report.cases.push_back(c.base);
      continue;
    }
    const std::vector<TimingMode>& modes = modes_for_tokens(timing, c.base.spec.tokens);
    for (std::size_t m = 0; m < modes.size(); ++m)
      report.cases.push_back(case_row(c, m, modes[m], report.device, keep_samples));
  }
  set_speedup_intervals(report.cases);
}

}  // namespace rkv
