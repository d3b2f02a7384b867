#include "gate/gate_rule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/rank_test.h"

namespace rkv {
namespace {

// The standard error of a median from its quartiles: for a normal distribution sd = IQR / 1.349
// and se(median) = 1.2533 sd / sqrt(n). Wider (not narrower) for the skewed distributions timings
// have, because the quartiles then sit further apart than the density at the median implies.
double median_se_from_quartiles(const Summary& s) {
  if (s.n < 1) return std::numeric_limits<double>::infinity();
  return 1.2533 * (s.q3 - s.q1) / 1.349 / std::sqrt(static_cast<double>(s.n));
}

// The spread between passes, as a standard error of their mean; 0 with fewer than two passes.
double pass_medians_se(const std::vector<Summary>& passes) {
  if (passes.size() < 2) return 0;
  double mean = 0;
  for (const Summary& p : passes)
    mean += p.median;
  mean /= static_cast<double>(passes.size());
  double ss = 0;
  for (const Summary& p : passes)
    ss += (p.median - mean) * (p.median - mean);
  const double k = static_cast<double>(passes.size());
  return std::sqrt(ss / (k - 1)) / std::sqrt(k);
}

double run_se(const TimeSamples& t) {
  return std::max(median_se_from_quartiles(t.pooled), pass_medians_se(t.passes));
}

Evidence evidence_of(const TimeSamples& b, const TimeSamples& c) {
  Evidence e;
  if (!b.raw.empty() && !c.raw.empty()) {
    const RankTest t = mann_whitney(c.raw, b.raw);
    e.method = "mann-whitney";
    e.z = t.z;
    e.p_slower = t.p_greater;
    e.p_faster = t.p_less;
    return e;
  }
  e.method = "median-z";
  const double se = std::hypot(run_se(b), run_se(c));
  const double diff = c.pooled.median - b.pooled.median;
  if (!(se > 0)) {
    // No spread at all (a single sample each, or identical ones): only an exact difference speaks.
    e.z = diff > 0 ? INFINITY : diff < 0 ? -INFINITY : 0;
  } else {
    e.z = diff / se;
  }
  e.p_slower = normal_upper_tail(e.z);
  e.p_faster = normal_upper_tail(-e.z);
  return e;
}

double rel_noise(const Summary& s) {
  const double r = s.rel_noise();
  return std::isfinite(r) ? r : 0;
}

std::string pct(double fraction) {
  return fmt::format("{:+.1f}%", fraction * 100);
}

}  // namespace

std::string to_string(Change c) {
  switch (c) {
    case Change::none:
      return "none";
    case Change::slower:
      return "slower";
    case Change::faster:
      return "faster";
    case Change::noted:
      return "noted";
  }
  return "none";
}

double RuleParams::machine_allowance(std::int64_t tokens) const {
  return tokens <= decode_max_tokens ? decode_machine_allowance
         : tokens <= mid_max_tokens  ? mid_machine_allowance
                                     : large_machine_allowance;
}

Judgement judge_time(const TimeSamples& b, const TimeSamples& c, std::int64_t tokens, Boards boards,
                     const RuleParams& p) {
  Judgement j;
  const double bm = b.pooled.median, cm = c.pooled.median;
  if (!(bm > 0) || !(cm > 0) || b.pooled.n == 0 || c.pooled.n == 0) {
    j.why = "not timed in both runs";
    return j;
  }
  j.delta = cm / bm - 1;
  j.floor_shift = b.pooled.min > 0 ? c.pooled.min / b.pooled.min - 1 : 0;
  j.noise = std::max(rel_noise(b.pooled), rel_noise(c.pooled));
  j.threshold = std::max(p.min_slowdown + p.resolution_us / bm, p.noise_factor * j.noise);
  if (boards == Boards::may_differ) {
    j.machine_allowance = p.machine_allowance(tokens);
    j.threshold = std::max(j.threshold, j.machine_allowance);
  }
  j.evidence = evidence_of(b, c);

  const double floor_needed = p.floor_shift_share * j.threshold;
  const bool slower_median = j.delta > j.threshold;
  const bool slower_floor = j.floor_shift > floor_needed;
  const bool slower_evidence = j.evidence.p_slower < p.max_p;
  const bool faster =
      -j.delta > j.threshold && -j.floor_shift > floor_needed && j.evidence.p_faster < p.max_p;
  const bool allowance_sets_t = j.machine_allowance > 0 && j.threshold == j.machine_allowance;
  const std::string numbers =
      fmt::format("{:.3f} -> {:.3f} us ({}, threshold {:.1f}%{}, fastest {}, p {:.2g})", bm, cm,
                  pct(j.delta), j.threshold * 100, allowance_sets_t ? " = machine allowance" : "",
                  pct(j.floor_shift), j.delta >= 0 ? j.evidence.p_slower : j.evidence.p_faster);
  if (slower_median && slower_floor && slower_evidence) {
    j.change = Change::slower;
    j.why = numbers;
  } else if (slower_median) {
    j.change = Change::noted;
    j.why = numbers + (!slower_floor ? ": the fastest launches did not slow down"
                                     : ": no statistical evidence");
  } else if (faster) {
    j.change = Change::faster;
    j.why = numbers;
  } else {
    j.why = numbers;
  }
  return j;
}

Judgement judge_speedup(const SpeedupEstimate& b, const SpeedupEstimate& c, const RuleParams& p) {
  Judgement j;
  const bool usable = std::isfinite(b.median) && std::isfinite(c.median) && b.median > 0 &&
                      std::isfinite(b.lo) && std::isfinite(b.hi) && std::isfinite(c.lo) &&
                      std::isfinite(c.hi);
  if (!usable) {
    j.why = "no speedup in both runs";
    return j;
  }
  j.delta = c.median / b.median - 1;
  const double half_width = std::max((b.hi - b.lo) / b.median, (c.hi - c.lo) / c.median) / 2;
  j.noise = half_width;
  j.threshold = std::max(p.speedup_tolerance, p.noise_factor * half_width);
  j.evidence.method = "intervals";
  const std::string numbers =
      fmt::format("{:.2f}x [{:.2f}, {:.2f}] -> {:.2f}x [{:.2f}, {:.2f}] ({}, threshold {:.1f}%)",
                  b.median, b.lo, b.hi, c.median, c.lo, c.hi, pct(j.delta), j.threshold * 100);
  const bool apart_below = c.hi<b.lo, apart_above = c.lo> b.hi;
  j.evidence.p_slower = apart_below ? 0 : 1;  // intervals give a yes/no, not a p
  j.evidence.p_faster = apart_above ? 0 : 1;
  if (-j.delta > j.threshold && apart_below) {
    j.change = Change::slower;
    j.why = numbers;
  } else if (-j.delta > j.threshold) {
    j.change = Change::noted;
    j.why = numbers + ": the intervals overlap";
  } else if (j.delta > j.threshold && apart_above) {
    j.change = Change::faster;
    j.why = numbers;
  } else {
    j.why = numbers;
  }
  return j;
}

}  // namespace rkv
