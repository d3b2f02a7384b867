#include "stats/stats.h"
#include "timing/timer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace rkv {
namespace {

TEST(Summarize, QuartilesInterpolateLinearlyLikeNumpy) {
  // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) == [1.75, 2.5, 3.25]
  const Summary s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.n, 4);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.rel_noise(), 1.5 / 2.5);
}

TEST(Summarize, OddCountHitsOrderStatistics) {
  const Summary s = summarize({5, 3, 1, 4, 2});
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
}

TEST(Summarize, MeanAndSampleStdev) {
  const Summary s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_NEAR(s.stdev, std::sqrt(32.0 / 7.0), 1e-12);  // n - 1 in the denominator
}

TEST(Summarize, OneSampleAndNone) {
  const Summary one = summarize({7});
  EXPECT_EQ(one.n, 1);
  EXPECT_DOUBLE_EQ(one.q1, 7);
  EXPECT_DOUBLE_EQ(one.q3, 7);
  EXPECT_DOUBLE_EQ(one.stdev, 0);
  EXPECT_DOUBLE_EQ(one.rel_noise(), 0);
  const Summary none = summarize({});
  EXPECT_EQ(none.n, 0);
  EXPECT_TRUE(std::isinf(none.rel_noise()));
}

TEST(QuantileSorted, MatchesNumpyAtOtherProbabilities) {
  // numpy.percentile([10, 20, 30, 40, 50], [0, 10, 90, 100]) == [10, 14, 46, 50]
  const std::vector<double> x = {10, 20, 30, 40, 50};
  EXPECT_DOUBLE_EQ(quantile_sorted(x, 0), 10);
  EXPECT_DOUBLE_EQ(quantile_sorted(x, 0.1), 14);
  EXPECT_DOUBLE_EQ(quantile_sorted(x, 0.9), 46);
  EXPECT_DOUBLE_EQ(quantile_sorted(x, 1), 50);
  EXPECT_TRUE(std::isnan(quantile_sorted({}, 0.5)));
}

StoppingRule::Params params() {
  StoppingRule::Params p;
  p.min_samples = 10;
  p.min_time_s = 0.5;
  p.max_noise = 0.005;
  p.timeout_s = 15;
  p.stable_window = 32;
  p.stable_min_samples = 128;
  return p;
}

TEST(StoppingRule, WaitsForMinSamplesAndMinTime) {
  const StoppingRule rule(params());
  const std::vector<double> quiet(9, 100.0);
  EXPECT_FALSE(rule.done(quiet, 1.0, 1.0));  // 9 < 10 samples
  const std::vector<double> enough(10, 100.0);
  EXPECT_FALSE(rule.done(enough, 1.0, 0.4));  // 0.4 s < 0.5 s measured
  const StopDecision d = rule.decide(enough, 1.0, 0.6);
  EXPECT_TRUE(d.done);
  EXPECT_EQ(d.reason, StopReason::converged);
}

TEST(StoppingRule, NoisySamplesRunOnUntilTimeout) {
  const StoppingRule rule(params());
  std::vector<double> noisy;
  for (int i = 0; i < 40; ++i)
    noisy.push_back(i % 2 ? 90.0 : 110.0);  // IQR / median = 20 %
  EXPECT_EQ(rule.decide(noisy, 5.0, 1.0).reason, StopReason::running);
  const StopDecision d = rule.decide(noisy, 15.0, 1.0);
  EXPECT_TRUE(d.done);
  EXPECT_EQ(d.reason, StopReason::timeout);
}

TEST(StoppingRule, TimeoutEndsEvenBeforeMinSamples) {
  const StoppingRule rule(params());
  EXPECT_EQ(rule.decide({1.0, 2.0}, 20.0, 0.0).reason, StopReason::timeout);
}

TEST(StoppingRule, StableWhenRecentMedianMatchesTheWhole) {
  const StoppingRule rule(params());
  // A noisy but stationary kernel: a repeating pattern, so every window of 32 has the same median.
  const double pattern[] = {90, 100, 110, 95, 105, 100, 98, 102};
  std::vector<double> x;
  for (int i = 0; i < 127; ++i)
    x.push_back(pattern[i % 8]);
  EXPECT_FALSE(rule.done(x, 2.0, 1.0));  // fewer than stable_min_samples
  x.push_back(pattern[127 % 8]);
  const StopDecision d = rule.decide(x, 2.0, 1.0);
  EXPECT_TRUE(d.done);
  EXPECT_EQ(d.reason, StopReason::stable);
}

TEST(StoppingRule, DriftIsNeitherConvergedNorStable) {
  const StoppingRule rule(params());
  std::vector<double> x;
  for (int i = 0; i < 256; ++i)
    x.push_back(100.0 + i);  // a clock ramping down
  EXPECT_FALSE(rule.done(x, 5.0, 1.0));
}

TEST(StoppingRule, NoiseTestAgreesWithSummarize) {
  // The rule selects quartiles without sorting; it must see the same noise as summarize().
  std::mt19937 rng(42);
  std::lognormal_distribution<double> dist(1.0, 0.05);
  for (int n : {10, 11, 12, 13, 37, 200}) {
    std::vector<double> x(n);
    for (double& v : x)
      v = dist(rng);
    const double noise = summarize(x).rel_noise();
    StoppingRule::Params p = params();
    p.stable_window = 0;  // only the noise test
    p.max_noise = noise * (1 + 1e-9);
    EXPECT_TRUE(StoppingRule(p).done(x, 1.0, 1.0)) << n;
    p.max_noise = noise * (1 - 1e-9);
    EXPECT_FALSE(StoppingRule(p).done(x, 1.0, 1.0)) << n;
  }
}

TEST(StoppingRule, TakesTimingOptions) {
  TimingOptions t;
  t.min_samples = 33;
  t.min_time_s = 0.25;
  t.max_noise = 0.02;
  t.timeout_s = 7;
  const StoppingRule rule(stopping_params(t));
  EXPECT_EQ(rule.params().min_samples, 33);
  EXPECT_DOUBLE_EQ(rule.params().min_time_s, 0.25);
  EXPECT_DOUBLE_EQ(rule.params().max_noise, 0.02);
  EXPECT_DOUBLE_EQ(rule.params().timeout_s, 7);
}

TEST(StopReason, Names) {
  EXPECT_EQ(to_string(StopReason::converged), "converged");
  EXPECT_EQ(to_string(StopReason::stable), "stable");
  EXPECT_EQ(to_string(StopReason::timeout), "timeout");
}

TEST(Speedup, MedianRatioAndQuartileInterval) {
  Summary pair, fused;
  pair.median = 10, pair.q1 = 9, pair.q3 = 11;
  fused.median = 5, fused.q1 = 4, fused.q3 = 6;
  const SpeedupEstimate s = speedup(pair, fused);
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.lo, 9.0 / 6.0);
  EXPECT_DOUBLE_EQ(s.hi, 11.0 / 4.0);
  EXPECT_TRUE(std::isnan(speedup(pair, Summary{}).median));
}

Summary quartiles(double q1, double median, double q3) {
  Summary s;
  s.n = 10;
  s.q1 = q1, s.median = median, s.q3 = q3;
  return s;
}

TEST(PooledSpeedup, OnePassIsThePlainSpeedup) {
  const Summary pair = quartiles(9, 10, 11), fused = quartiles(4, 5, 6);
  const SpeedupEstimate one = pooled_speedup(pair, fused, {pair}, {fused});
  const SpeedupEstimate plain = speedup(pair, fused);
  EXPECT_DOUBLE_EQ(one.median, plain.median);
  EXPECT_DOUBLE_EQ(one.lo, plain.lo);
  EXPECT_DOUBLE_EQ(one.hi, plain.hi);
  EXPECT_EQ(one.pass_medians, std::vector<double>{2.0});
}

// Two tight passes that disagree: the pooled quartiles alone would not reach either pass's
// speedup, the hull reaches both passes' quartile intervals.
TEST(PooledSpeedup, IntervalSpansEveryPass) {
  const Summary pair_a = quartiles(9.9, 10, 10.1), fused_a = quartiles(4.95, 5, 5.05);   // 2.0x
  const Summary pair_b = quartiles(10.9, 11, 11.1), fused_b = quartiles(4.95, 5, 5.05);  // 2.2x
  const Summary pair = quartiles(10, 10.5, 11), fused = quartiles(4.96, 5, 5.04);
  const SpeedupEstimate s = pooled_speedup(pair, fused, {pair_a, pair_b}, {fused_a, fused_b});
  EXPECT_DOUBLE_EQ(s.median, 10.5 / 5);
  EXPECT_DOUBLE_EQ(s.lo, 9.9 / 5.05);
  EXPECT_DOUBLE_EQ(s.hi, 11.1 / 4.95);
  ASSERT_EQ(s.pass_medians.size(), 2u);
  EXPECT_DOUBLE_EQ(s.pass_medians[0], 2.0);
  EXPECT_DOUBLE_EQ(s.pass_medians[1], 2.2);
  // Passes inside the pooled interval do not narrow it.
  const SpeedupEstimate inside =
      pooled_speedup(quartiles(8, 10, 12), quartiles(4, 5, 6), {pair_a}, {fused_a});
  EXPECT_DOUBLE_EQ(inside.lo, 8.0 / 6);
  EXPECT_DOUBLE_EQ(inside.hi, 12.0 / 4);
}

TEST(PooledSpeedup, PassWithoutFusedSamplesWidensNothing) {
  const Summary pair = quartiles(9, 10, 11), fused = quartiles(4, 5, 6);
  const SpeedupEstimate s = pooled_speedup(pair, fused, {pair, pair}, {fused, Summary{}});
  EXPECT_DOUBLE_EQ(s.lo, 9.0 / 6);
  EXPECT_DOUBLE_EQ(s.hi, 11.0 / 4);
  ASSERT_EQ(s.pass_medians.size(), 2u);
  EXPECT_TRUE(std::isnan(s.pass_medians[1]));
  EXPECT_TRUE(std::isnan(pooled_speedup(pair, Summary{}, {pair}, {Summary{}}).median));
}

}  // namespace
}  // namespace rkv
