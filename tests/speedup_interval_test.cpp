#include "stats/speedup_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace rkv {
namespace {

std::vector<double> exps(std::vector<double> logs) {
  for (double& x : logs)
    x = std::exp(x);
  return logs;
}

TEST(SpeedupInterval, LogPassVariance) {
  EXPECT_DOUBLE_EQ(log_pass_variance({2.0, 2.0, 2.0}), 0.0);
  EXPECT_NEAR(log_pass_variance(exps({0.01, -0.01})), 2e-4, 1e-15);
  EXPECT_TRUE(std::isnan(log_pass_variance({2.0})));
  // NaN and non-positive passes measured nothing and are left out.
  EXPECT_NEAR(log_pass_variance({std::exp(0.01), NAN, std::exp(-0.01), 0.0}), 2e-4, 1e-15);
}

TEST(SpeedupInterval, TypicalIsTheMedianOverCasesWithTwoPasses) {
  const double t = typical_pass_variance({exps({0.01, -0.01}),  // 2e-4
                                          exps({0.02, -0.02}),  // 8e-4
                                          exps({0.0, 0.0}),     // 0
                                          {1.5}});              // one pass: skipped
  EXPECT_NEAR(t, 2e-4, 1e-15);
  EXPECT_TRUE(std::isnan(typical_pass_variance({{1.5}, {}})));
}

TEST(SpeedupInterval, HalfWidthShrinksTheCaseTowardsTheRun) {
  const IntervalRule rule;  // z 2.5, prior_dof 4, one_pass 0.0125, machine 2 / 1 / 0.5 %
  // s2 = 1e-4 over 3 passes, typical 4e-4: w2 = (4 * 4e-4 + 2 * 1e-4) / 6 = 3e-4; 2048 tokens
  // is the large class.
  const double h = interval_half_width(exps({-0.01, 0.0, 0.01}), 4e-4, 2048, rule);
  EXPECT_NEAR(h, 2.5 * std::sqrt(2 * (3e-4 / 3 + 0.005 * 0.005)), 1e-12);
  // One pass: the assumed pass spread.
  EXPECT_NEAR(interval_half_width({1.7}, NAN, 2048, rule),
              2.5 * std::sqrt(2 * (0.0125 * 0.0125 + 0.005 * 0.005)), 1e-12);
  // More passes of the same spread: narrower.
  EXPECT_LT(interval_half_width(exps({-0.01, 0.0, 0.01, -0.01, 0.0, 0.01}), 1e-4, 2048, rule),
            interval_half_width(exps({-0.01, 0.0, 0.01}), 1e-4, 2048, rule));
  EXPECT_TRUE(std::isnan(interval_half_width({}, 1e-4, 2048, rule)));
}

TEST(SpeedupInterval, TheMachineTermFollowsTheTokenClass) {
  const IntervalRule rule;
  const std::vector<double> passes = exps({-0.01, 0.0, 0.01});
  const auto expected = [&](double machine) {
    const double w2 = (4 * 4e-4 + 2 * 1e-4) / 6;
    return 2.5 * std::sqrt(2 * (w2 / 3 + machine * machine));
  };
  // The class edges: decode up to 8 tokens, mid up to 1024, large above.
  EXPECT_NEAR(interval_half_width(passes, 4e-4, 1, rule), expected(0.020), 1e-12);
  EXPECT_NEAR(interval_half_width(passes, 4e-4, 8, rule), expected(0.020), 1e-12);
  EXPECT_NEAR(interval_half_width(passes, 4e-4, 9, rule), expected(0.010), 1e-12);
  EXPECT_NEAR(interval_half_width(passes, 4e-4, 1024, rule), expected(0.010), 1e-12);
  EXPECT_NEAR(interval_half_width(passes, 4e-4, 1025, rule), expected(0.005), 1e-12);
}

TEST(SpeedupInterval, ApplyCentresOnThePassesGeometricMeanAndNamesTheMethod) {
  SpeedupEstimate s;
  s.median = 1.9;  // the pooled median, off the passes' centre (a bimodal case)
  s.pass_medians = exps({std::log(1.8) - 0.01, std::log(1.8), std::log(1.8) + 0.01});
  apply_interval_rule(s, 1e-4, 128, IntervalRule{});
  const double h = interval_half_width(s.pass_medians, 1e-4, 128, IntervalRule{});
  EXPECT_NEAR(s.center, 1.8, 1e-12);
  EXPECT_NEAR(s.interval_center(), 1.8, 1e-12);
  EXPECT_NEAR(s.lo, 1.8 * std::exp(-h), 1e-12);
  EXPECT_NEAR(s.hi, 1.8 * std::exp(h), 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 1.9);  // the reported speedup is left as measured
  EXPECT_EQ(s.interval_method, "pass_spread_machine");
  // One pass: the pooled median is that pass, and the centre.
  SpeedupEstimate one;
  one.median = 2.0;
  one.pass_medians = {2.0};
  apply_interval_rule(one, 1e-4, 1, IntervalRule{});
  EXPECT_DOUBLE_EQ(one.center, 2.0);
  SpeedupEstimate none;
  none.median = NAN;
  apply_interval_rule(none, 1e-4, 1, IntervalRule{});
  EXPECT_TRUE(std::isnan(none.lo) && std::isnan(none.hi));
}

// Two bimodal runs: each pass is in the slow mode (10 % lower speedup) or not. The pooled
// median jumps a whole mode when the majority changes; the centre moves by the slow share.
TEST(SpeedupInterval, ABimodalCaseStaysInsideAcrossRuns) {
  const double fast = 2.0, slow = 1.8;
  SpeedupEstimate a, b;
  a.pass_medians = {fast, slow, fast, slow, fast};  // 2 of 5 slow
  a.median = fast;
  b.pass_medians = {slow, fast, slow, slow, fast};  // 3 of 5 slow
  b.median = slow;
  const double typical = typical_pass_variance({a.pass_medians, b.pass_medians});
  apply_interval_rule(a, typical, 1, IntervalRule{});
  apply_interval_rule(b, typical, 1, IntervalRule{});
  EXPECT_TRUE(a.lo <= b.center && b.center <= a.hi);
  EXPECT_TRUE(b.lo <= a.center && a.center <= b.hi);
}

// The rule's intent on simulated runs: with a between-run sd of 0.5 % and a pass sd of 1 % (what
// the committed H200 re-runs show), a second run's median lands inside the first run's interval
// nearly always. Seeded, so the count is the same on every machine.
TEST(SpeedupInterval, ASecondSimulatedRunLandsInsideTheFirstsInterval) {
  std::mt19937_64 rng(20261129);
  std::normal_distribution<double> run_shift(0.0, 0.005), pass_noise(0.0, 0.01);
  const int cases = 32, passes = 5, trials = 200;
  int inside = 0, total = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<std::vector<double>> runs[2];
    for (auto& run : runs)
      for (int c = 0; c < cases; ++c) {
        const double shift = run_shift(rng);
        std::vector<double> p;
        for (int k = 0; k < passes; ++k)
          p.push_back(std::exp(shift + pass_noise(rng)));
        run.push_back(p);
      }
    const double typical = typical_pass_variance(runs[0]);
    for (int c = 0; c < cases; ++c) {
      SpeedupEstimate a;
      double mean_a = 0, mean_b = 0;
      for (int k = 0; k < passes; ++k) {
        mean_a += std::log(runs[0][c][k]) / passes;
        mean_b += std::log(runs[1][c][k]) / passes;
      }
      a.median = std::exp(mean_a);
      a.pass_medians = runs[0][c];
      apply_interval_rule(a, typical, 2048, IntervalRule{});
      const double b = std::exp(mean_b);
      inside += a.lo <= b && b <= a.hi;
      ++total;
    }
  }
  EXPECT_GE(static_cast<double>(inside) / total, 0.98) << inside << " of " << total;
}

}  // namespace
}  // namespace rkv
