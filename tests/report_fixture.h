// Synthetic reports for the report, tables and compare tests: every field set to something that
// is not its default, so a serializer that forgets a field fails a round trip.
#pragma once

#include <string>

#include "report/report.h"

namespace rkv::testing {

// A summary centred on `median` with quartiles `spread` either side.
inline Summary summary_around(double median, double spread, int n = 50) {
  Summary s;
  s.n = n;
  s.median = median;
  s.q1 = median - spread;
  s.q3 = median + spread;
  s.min = median - 2 * spread;
  s.max = median + 3 * spread;
  s.mean = median + 0.1 * spread;
  s.stdev = spread * 1.5;
  return s;
}

inline VariantResult variant(Variant which, double median, double spread) {
  VariantResult v;
  v.variant = to_string(which);
  v.us = summary_around(median, spread);
  v.stop_reason = "converged";
  v.throttled_samples = 2;
  v.sm_clock_mhz_median = 1980;
  v.passes = {summary_around(median * 0.99, spread, 20), summary_around(median * 1.01, spread, 30)};
  return v;
}

// One passed, timed case: pair and fused medians (us), spread for both.
inline CaseResult timed_case(DType dtype, CacheDType cache, int kv_heads, std::int64_t tokens,
                             const std::string& mode, double pair_us, double fused_us,
                             double spread = 0.05) {
  CaseResult c;
  c.spec.dtype = dtype;
  c.spec.cache_dtype = cache;
  c.spec.heads.num_kv_heads = kv_heads;
  c.spec.tokens = tokens;
  c.id = c.spec.id();
  c.mode = mode;
  c.validation = Disposition::passed;
  c.variants = {variant(Variant::fused, fused_us, spread), variant(Variant::pair, pair_us, spread),
                variant(Variant::rope, pair_us * 0.6, spread),
                variant(Variant::cache_write, pair_us * 0.4, spread)};
  c.speedup = speedup(c.variants[1].us, c.variants[0].us);
  c.min_bytes = 1000 * tokens;
  c.floor_us = fused_us / 2;
  c.fused_gbps = 1500;
  c.fused_pct_of_bandwidth = 41.4;
  c.repro = "rope-kv-bench bench " + c.spec.repro_args();
  return c;
}

inline DeviceInfo h200() {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-4f3c2b1a-9e8d-7c6b-5a49-382716054321";
  d.sm_count = 132;
  d.l2_bytes = 50331648;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_clock_max_mhz = 1980;
  d.mem_clock_mhz = 3201;
  d.mem_bus_bits = 6144;
  d.driver_version = "580.159.04";
  d.runtime_version = "12.8";
  d.copy_bandwidth_gbps = 3900.5;
  d.launch_floor_us = {{"graph", 1.25}, {"cold", 4.5}};
  return d;
}

inline Report base_report() {
  Report r;
  r.tool_version = "0.1.0";
  r.git_revision = "abc1234-dirty";
  r.created_utc = "2025-01-31T12:00:00Z";
  r.argv = {"rope-kv-bench", "bench", "--config", "configs/seed-table.json"};
  r.command = "bench";
  r.device = h200();
  r.timing.modes = {TimingMode::graph, TimingMode::cold};
  r.timing.min_samples = 20;
  r.timing.max_noise = 0.01;
  r.timing.min_time_s = 0.1;
  r.timing.timeout_s = 3;
  r.timing.warmup_s = 0.03;
  r.timing.warmup_min = 4;
  r.timing.graph_launches = 64;
  r.timing.wall_launches = 32;
  r.timing.batch_launches = 16;
  r.timing.producer_read_mib = 48;  // not the default, so the round trip must carry it
  r.timing.passes = 2;
  return r;
}

}  // namespace rkv::testing
