// Sample statistics, the stopping rule that decides when a variant has been sampled enough, and
// the speedup estimate with its interval. Host-only and unit-free: the timer feeds microseconds.
//
// Quartiles use linear interpolation between order statistics (Hyndman & Fan type 7, the default
// of numpy.percentile, R's quantile() and Excel's QUARTILE.INC): for sorted x[0..n-1] and p in
// [0, 1], h = (n - 1) * p and Q(p) = x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] -
// x[floor(h)]). It is defined for every n >= 1, and anyone can recompute it from the raw samples
// with numpy.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace rkv {

struct Summary {
  int n = 0;
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0, mean = 0;
  double stdev = 0;  // sample standard deviation (n - 1 in the denominator); 0 when n < 2

  // IQR / median: the noise measure of the stopping rule and the tables. Robust to the rare
  // preempted sample that would dominate stdev / mean. +inf when there is no positive median.
  double rel_noise() const;
};

Summary summarize(const std::vector<double>& samples);

// Type-7 quantile of an already sorted, non-empty range (see the header comment).
double quantile_sorted(const std::vector<double>& sorted, double p);

// Why sampling stopped. `running` only comes back while the rule says "not done".
enum class StopReason { running, converged, stable, timeout };
std::string to_string(StopReason r);

struct StopDecision {
  bool done = false;
  StopReason reason = StopReason::running;
};

// When to stop sampling one variant, in the spirit of nvbench's stdrel criterion, but on the
// robust noise measure (IQR / median) the report prints:
//   1. never before `min_samples` samples and `min_time_s` of measured (GPU) time;
//   2. then `converged` once rel_noise() <= max_noise;
//   3. or `stable` once the estimate stopped moving: with at least `stable_min_samples` samples,
//      the median of the last `stable_window` samples is within max_noise of the median of all
//      samples. A kernel whose noise never gets under the target (a 3 us launch on a shared
//      clock) still gets a trustworthy median instead of burning the timeout; the check is
//      relative to the same target, so a drifting clock keeps it from firing;
//   4. `timeout` once `timeout_s` of wall time has elapsed since sampling began, whatever 1-3
//      say (like nvbench: a timeout ends even a run that has not reached min_samples; the report
//      carries the reason and n, so it is visible).
class StoppingRule {
 public:
  struct Params {
    int min_samples = 10;
    double min_time_s = 0.05;
    double max_noise = 0.005;  // fraction: 0.005 = 0.5 %
    double timeout_s = 2.0;
    int stable_window = 32;        // k: the recent samples whose median is checked
    int stable_min_samples = 128;  // the whole must be several windows long to mean anything
  };

  StoppingRule() = default;
  explicit StoppingRule(const Params& p) : params_(p) {}

  // samples: every sample so far (any unit); elapsed_s: wall time since sampling began;
  // measured_s: the sum of the measured (GPU) times, in seconds.
  StopDecision decide(const std::vector<double>& samples, double elapsed_s,
                      double measured_s) const;
  bool done(const std::vector<double>& samples, double elapsed_s, double measured_s) const {
    return decide(samples, elapsed_s, measured_s).done;
  }
  const Params& params() const { return params_; }

 private:
  Params params_;
};

// speedup = median(pair) / median(fused). The interval pairs the quartiles pessimistically and
// optimistically: [q1(pair) / q3(fused), q3(pair) / q1(fused)], so it is wide exactly when either
// side is noisy. NaN everywhere when a fused quartile is not positive (nothing was measured).
struct SpeedupEstimate {
  double median = 0;
  double lo = 0;
  double hi = 0;
  // One speedup per pass over the sweep (TimingOptions::passes), in pass order; empty in reports
  // written before passes existed.
  std::vector<double> pass_medians;
  // How lo and hi were made: "pass_spread_machine" or "pass_spread" (speedup_interval.h), or
  // "quartile_hull" (the pooled and per-pass quartile intervals' hull below; every report
  // written before the key existed).
  std::string interval_method = "quartile_hull";
  // Where the interval is centred (pass_spread_machine only; NaN otherwise): the geometric mean
  // of the pass speedups. When one kernel of the pair is slower in some passes than in others,
  // that mean moves by the slow passes' share, while the pooled median flips to whichever mode
  // holds more than half the samples: two runs' medians can then lie a whole mode apart.
  double center = std::numeric_limits<double>::quiet_NaN();
  // The value a re-run is checked against the interval with: `center` when set, else `median`.
  double interval_center() const { return std::isfinite(center) ? center : median; }
};
SpeedupEstimate speedup(const Summary& pair, const Summary& fused);

// The speedup of a case timed in several passes. The median comes from the pooled samples; the
// interval is the hull of the pooled quartile interval and every pass's own quartile interval,
// so it also spans what moved between passes (fresh buffers, fresh graphs, seconds apart): the
// drift that one pass's quartiles cannot see and a second run of the sweep would. `pair_passes`
// and `fused_passes` are per pass and the same length; with one pass this equals speedup().
SpeedupEstimate pooled_speedup(const Summary& pair, const Summary& fused,
                               const std::vector<Summary>& pair_passes,
                               const std::vector<Summary>& fused_passes);

}  // namespace rkv
