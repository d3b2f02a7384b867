// The speedup interval a re-run should land in (docs/methodology.md, "Intervals that hold across
// runs"). Host-only and unit-free.
//
// A run's speedup is m = median(pooled pair) / median(pooled fused). What moves it between runs
// is (a) what moves between the passes of one run (fresh buffers and graphs, buffer placement,
// seconds apart), seen in the spread of the per-pass speedups, and (b) what is fixed within one
// process but not across processes and machines, which no single run can see and which is
// estimated once from committed re-runs. In log space, with P passes whose log speedups have
// sample variance s2:
//
//   w2 = (prior_dof * typical + (P - 1) * s2) / (prior_dof + P - 1)
//   h  = z * sqrt(2 * (w2 / P + between_run_sd^2))
//   lo = m * exp(-h),  hi = m * exp(+h)
//
// `typical` is the median s2 over the run's cases of the same mode: with three to five passes a
// case's own s2 is too rough to trust alone (two to four degrees of freedom), so it is shrunk
// towards what the whole run shows. The factor 2 is there because the interval must hold another
// run's median, which is as uncertain as this one's. With one pass there is no pass spread to
// see, and w2 = one_pass_sd^2.
#pragma once

#include <string>
#include <vector>

#include "stats/stats.h"

namespace rkv {

struct IntervalRule {
  double z = 2.5;
  double between_run_sd = 0.005;  // sd of a log speedup between processes (committed re-runs)
  double prior_dof = 4;           // the run's typical pass spread counts as this many passes
  double one_pass_sd = 0.0125;    // the pass spread assumed for one-pass runs
};

// The value of `speedup.interval_method` in reports whose lo/hi this rule made. Reports without
// the key made lo/hi as the hull of the quartile intervals (kQuartileHull).
inline constexpr const char* kPassSpreadMethod = "pass_spread";
inline constexpr const char* kQuartileHull = "quartile_hull";

// Sample variance of log(pass speedup) over the finite, positive entries; NaN with fewer than 2.
double log_pass_variance(const std::vector<double>& pass_speedups);

// The median of log_pass_variance over the given cases (those with fewer than two passes are
// skipped); NaN when no case has two passes.
double typical_pass_variance(const std::vector<std::vector<double>>& pass_speedups_per_case);

// h above, in log space: the interval is [m e^-h, m e^+h]. NaN when no pass measured anything.
double interval_half_width(const std::vector<double>& pass_speedups, double typical_variance,
                           const IntervalRule& rule);

// Sets s.lo, s.hi and s.interval_method from s.median and s.pass_medians (median: lo = hi = NaN
// when it is NaN).
void apply_interval_rule(SpeedupEstimate& s, double typical_variance, const IntervalRule& rule);

}  // namespace rkv
