#include "stats/stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace rkv {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Type-7 quantiles of `v` (unsorted, non-empty; reordered in place) at ascending `ps`, by
// selection instead of a sort: the stopping rule asks after every sample, and O(n) keeps a
// 10k-sample run from spending its time budget on the host.
template <std::size_t N>
std::array<double, N> select_quantiles(std::vector<double>& v, const std::array<double, N>& ps) {
  std::array<double, N> out{};
  const std::size_t n = v.size();
  auto from = v.begin();  // everything before `from` is <= the last selected order statistic
  for (std::size_t i = 0; i < N; ++i) {
    const double h = static_cast<double>(n - 1) * ps[i];
    const auto k = static_cast<std::size_t>(std::floor(h));
    const auto kth = v.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(from, kth, v.end());
    double value = *kth;
    const double frac = h - static_cast<double>(k);
    if (frac > 0 && k + 1 < n) {
      const double next = *std::min_element(kth + 1, v.end());  // the (k+1)-th order statistic
      value += frac * (next - value);
    }
    out[i] = value;
    from = kth;
  }
  return out;
}

}  // namespace

double Summary::rel_noise() const {
  if (n <= 0 || !(median > 0)) return std::numeric_limits<double>::infinity();
  return (q3 - q1) / median;
}

double quantile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return kNaN;
  const double h = static_cast<double>(sorted.size() - 1) * std::clamp(p, 0.0, 1.0);
  const auto k = static_cast<std::size_t>(std::floor(h));
  if (k + 1 >= sorted.size()) return sorted.back();
  return sorted[k] + (h - static_cast<double>(k)) * (sorted[k + 1] - sorted[k]);
}

Summary summarize(const std::vector<double>& samples) {
  Summary s;
  s.n = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = quantile_sorted(sorted, 0.25);
  s.median = quantile_sorted(sorted, 0.5);
  s.q3 = quantile_sorted(sorted, 0.75);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / s.n;
  if (s.n > 1) {
    double ss = 0;
    for (double x : sorted)
      ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / (s.n - 1));
  }
  return s;
}

std::string to_string(StopReason r) {
  switch (r) {
    case StopReason::running:
      return "running";
    case StopReason::converged:
      return "converged";
    case StopReason::stable:
      return "stable";
    case StopReason::timeout:
      return "timeout";
  }
  return "unknown";
}

StopDecision StoppingRule::decide(const std::vector<double>& samples, double elapsed_s,
                                  double measured_s) const {
  const auto n = static_cast<int>(samples.size());
  const bool minimums_met =
      n >= std::max(params_.min_samples, 1) && measured_s >= params_.min_time_s;
  if (minimums_met) {
    std::vector<double> scratch = samples;
    const auto q = select_quantiles(scratch, std::array<double, 3>{0.25, 0.5, 0.75});
    const double median = q[1];
    if (median > 0 && (q[2] - q[0]) / median <= params_.max_noise)
      return {true, StopReason::converged};

    const int k = params_.stable_window;
    if (k > 0 && n >= std::max(params_.stable_min_samples, 2 * k) && median > 0) {
      std::vector<double> recent(samples.end() - k, samples.end());
      const double recent_median = select_quantiles(recent, std::array<double, 1>{0.5})[0];
      if (std::abs(recent_median - median) / median <= params_.max_noise)
        return {true, StopReason::stable};
    }
  }
  if (elapsed_s >= params_.timeout_s) return {true, StopReason::timeout};
  return {false, StopReason::running};
}

SpeedupEstimate speedup(const Summary& pair, const Summary& fused) {
  SpeedupEstimate s;
  if (!(fused.median > 0 && fused.q1 > 0 && fused.q3 > 0)) {
    s.median = s.lo = s.hi = kNaN;
    return s;
  }
  s.median = pair.median / fused.median;
  s.lo = pair.q1 / fused.q3;
  s.hi = pair.q3 / fused.q1;
  s.pass_medians = {s.median};
  return s;
}

SpeedupEstimate pooled_speedup(const Summary& pair, const Summary& fused,
                               const std::vector<Summary>& pair_passes,
                               const std::vector<Summary>& fused_passes) {
  SpeedupEstimate out = speedup(pair, fused);
  if (std::isnan(out.median) || pair_passes.size() != fused_passes.size()) return out;
  out.pass_medians.clear();
  for (std::size_t p = 0; p < pair_passes.size(); ++p) {
    const SpeedupEstimate one = speedup(pair_passes[p], fused_passes[p]);
    out.pass_medians.push_back(one.median);
    if (std::isnan(one.median)) continue;  // a pass that measured nothing widens nothing
    out.lo = std::min(out.lo, one.lo);
    out.hi = std::max(out.hi, one.hi);
  }
  return out;
}

}  // namespace rkv
