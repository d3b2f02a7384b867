#include "run/bench_report.h"

namespace rkv {

CaseResult case_row(const BenchCase& c, std::size_t mode_index, TimingMode mode,
                    const DeviceInfo& device) {
  CaseResult r = c.base;
  r.mode = to_string(mode);
  if (!c.timed || mode_index >= c.samples.size() || c.samples[mode_index].empty()) return r;
  const auto& passes = c.samples[mode_index];
  for (std::size_t v = 0; v < passes.front().size(); ++v) {
    std::vector<VariantSamples> of_variant;
    for (const auto& pass : passes)
      of_variant.push_back(pass[v]);
    r.variants.push_back(summarize_passes(of_variant, device.sm_clock_max_mhz));
  }
  r.floor_us = static_cast<double>(r.min_bytes) / (device.copy_bandwidth_gbps * 1e3);
  const VariantResult* fused = r.find_variant("fused");
  const VariantResult* pair = r.find_variant("pair");
  if (fused != nullptr && fused->us.median > 0) {
    r.fused_gbps = static_cast<double>(r.min_bytes) / (fused->us.median * 1e3);
    r.fused_pct_of_bandwidth = 100.0 * r.fused_gbps / device.copy_bandwidth_gbps;
  }
  if (fused != nullptr && pair != nullptr)
    r.speedup = pooled_speedup(pair->us, fused->us, pair->passes, fused->passes);
  return r;
}

void add_bench_rows(Report& report, const std::vector<BenchCase>& cases,
                    const std::vector<TimingMode>& modes) {
  for (const BenchCase& c : cases) {
    if (c.base.id.empty()) continue;                 // interrupted before this case's first pass
    if (c.base.validation == Disposition::failed) {  // threw: one row saying why
      report.cases.push_back(c.base);
      continue;
    }
    for (std::size_t m = 0; m < modes.size(); ++m)
      report.cases.push_back(case_row(c, m, modes[m], report.device));
  }
}

}  // namespace rkv
