#include "stats/speedup_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rkv {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> finite_logs(const std::vector<double>& xs) {
  std::vector<double> out;
  for (double x : xs)
    if (std::isfinite(x) && x > 0) out.push_back(std::log(x));
  return out;
}

}  // namespace

double log_pass_variance(const std::vector<double>& pass_speedups) {
  const std::vector<double> l = finite_logs(pass_speedups);
  if (l.size() < 2) return kNaN;
  double mean = 0;
  for (double x : l)
    mean += x;
  mean /= static_cast<double>(l.size());
  double ss = 0;
  for (double x : l)
    ss += (x - mean) * (x - mean);
  return ss / static_cast<double>(l.size() - 1);
}

double geometric_mean(const std::vector<double>& pass_speedups) {
  const std::vector<double> l = finite_logs(pass_speedups);
  if (l.empty()) return kNaN;
  double sum = 0;
  for (double x : l)
    sum += x;
  return std::exp(sum / static_cast<double>(l.size()));
}

double typical_pass_variance(const std::vector<std::vector<double>>& pass_speedups_per_case) {
  std::vector<double> v;
  for (const std::vector<double>& c : pass_speedups_per_case) {
    const double s2 = log_pass_variance(c);
    if (!std::isnan(s2)) v.push_back(s2);
  }
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}

double interval_half_width(const std::vector<double>& pass_speedups, double typical_variance,
                           std::int64_t tokens, const IntervalRule& rule) {
  const auto passes = static_cast<double>(finite_logs(pass_speedups).size());
  if (passes < 1) return kNaN;
  double w2 = rule.one_pass_sd * rule.one_pass_sd;
  if (passes >= 2) {
    const double s2 = log_pass_variance(pass_speedups);
    const double prior = std::isnan(typical_variance) ? s2 : typical_variance;
    w2 = (rule.prior_dof * prior + (passes - 1) * s2) / (rule.prior_dof + passes - 1);
  }
  const double b = rule.machine_sd(tokens);
  return rule.z * std::sqrt(2 * (w2 / passes + b * b));
}

void apply_interval_rule(SpeedupEstimate& s, double typical_variance, std::int64_t tokens,
                         const IntervalRule& rule) {
  s.interval_method = kPassSpreadMachineMethod;
  // Reports written before passes existed have no pass speedups: the pooled one is the one pass.
  const std::vector<double> passes =
      s.pass_medians.empty() ? std::vector<double>{s.median} : s.pass_medians;
  const double h = interval_half_width(passes, typical_variance, tokens, rule);
  // With one pass the pooled median is that pass's speedup, samples and all.
  s.center = finite_logs(passes).size() >= 2 ? geometric_mean(passes) : s.median;
  if (!std::isfinite(s.median) || !std::isfinite(s.center) || std::isnan(h)) {
    s.lo = s.hi = kNaN;
    return;
  }
  s.lo = s.center * std::exp(-h);
  s.hi = s.center * std::exp(h);
}

}  // namespace rkv
