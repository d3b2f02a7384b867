// The speedup interval a re-run should land in (docs/methodology.md, "Intervals that hold across
// runs"). Host-only and unit-free.
//
// What moves a run's speedup between runs is (a) what moves between the passes of one run (fresh
// buffers and graphs, buffer placement, seconds apart), seen in the spread of the per-pass
// speedups, and (b) what is fixed within one process on one machine but differs between
// machines of the same kind, which no single run can see and which is estimated once from
// committed same-build runs on different machines (scripts/between_machine.py). In log space,
// with P passes whose log speedups have mean c and sample variance s2:
//
//   w2 = (prior_dof * typical + (P - 1) * s2) / (prior_dof + P - 1)
//   h  = z * sqrt(2 * (w2 / P + machine_sd(tokens)^2))
//   centre = exp(c),  lo = centre * exp(-h),  hi = centre * exp(+h)
//
// `typical` is the median s2 over the run's cases of the same mode: with three to five passes a
// case's own s2 is too rough to trust alone (two to four degrees of freedom), so it is shrunk
// towards what the whole run shows. The factor 2 is there because the interval must hold another
// run's centre, which is as uncertain as this one's. With one pass there is no pass spread to
// see: w2 = one_pass_sd^2 and the centre is that pass's (the pooled) speedup.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stats/stats.h"

namespace rkv {

struct IntervalRule {
  double z = 2.5;
  double prior_dof = 4;         // the run's typical pass spread counts as this many passes
  double one_pass_sd = 0.0125;  // the pass spread assumed for one-pass runs
  // The between-machine sd of a log speedup, by token count: one launch at decode sizes is a
  // few microseconds of latency, and machines of the same kind differ in it by more than they
  // differ in bandwidth. Estimated on three H200 machines (scripts/between_machine.py prints
  // 2.0 %, 1.1 % and 0.15 % for the three classes); the large class keeps the 0.5 % that
  // separate processes on one machine showed before, as a floor.
  std::int64_t decode_max_tokens = 8;
  std::int64_t mid_max_tokens = 1024;
  double decode_machine_sd = 0.020;
  double mid_machine_sd = 0.010;
  double large_machine_sd = 0.005;

  double machine_sd(std::int64_t tokens) const {
    if (tokens <= decode_max_tokens) return decode_machine_sd;
    return tokens <= mid_max_tokens ? mid_machine_sd : large_machine_sd;
  }
};

// The value of `speedup.interval_method` in reports whose lo/hi this rule made.
// kPassSpreadMethod: the rule before the machine term and the centre (one 0.5 % between-run sd
// for every size, centred on the pooled median); kQuartileHull: the hull of the quartile
// intervals (reports without the key).
inline constexpr const char* kPassSpreadMachineMethod = "pass_spread_machine";
inline constexpr const char* kPassSpreadMethod = "pass_spread";
inline constexpr const char* kQuartileHull = "quartile_hull";

// Sample variance of log(pass speedup) over the finite, positive entries; NaN with fewer than 2.
double log_pass_variance(const std::vector<double>& pass_speedups);

// Geometric mean of the finite, positive entries; NaN when there is none.
double geometric_mean(const std::vector<double>& pass_speedups);

// The median of log_pass_variance over the given cases (those with fewer than two passes are
// skipped); NaN when no case has two passes.
double typical_pass_variance(const std::vector<std::vector<double>>& pass_speedups_per_case);

// h above, in log space, for a case of `tokens` tokens. NaN when no pass measured anything.
double interval_half_width(const std::vector<double>& pass_speedups, double typical_variance,
                           std::int64_t tokens, const IntervalRule& rule);

// Sets s.center, s.lo, s.hi and s.interval_method from s.pass_medians (s.median when there are
// fewer than two passes). lo = hi = NaN when nothing was measured.
void apply_interval_rule(SpeedupEstimate& s, double typical_variance, std::int64_t tokens,
                         const IntervalRule& rule);

}  // namespace rkv
