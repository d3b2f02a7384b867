#include "timing/sampling_driver.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace rkv {
namespace {

// Records which variant was sampled when; variant i's samples are drawn around 1 + i.
class FakeSampler : public Sampler {
 public:
  explicit FakeSampler(std::uint64_t seed) : rng_(seed) {}
  double sample(std::size_t index) override {
    calls.push_back(index);
    return 1.0 + static_cast<double>(index) + jitter_(rng_);
  }
  int launches_per_sample() const override { return 100; }
  std::vector<std::size_t> calls;

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> jitter_{0.0, 1e-4};
};

DriverParams quick_params() {
  DriverParams p;
  p.rule.min_samples = 10;
  p.rule.min_time_s = 0;
  p.rule.max_noise = 0.01;
  p.rule.timeout_s = 5;
  p.warmup_s = 0;
  p.warmup_min = 2;
  return p;
}

TEST(SamplingDriver, WarmsUpEachVariantThenSamplesInRoundsUntilTheRuleIsMet) {
  FakeSampler s(std::random_device{}());
  int clock_reads = 0;
  const SamplingDriver driver(quick_params(), [&] { return 1000.0 + clock_reads++; });
  const std::vector<VariantSamples> out = driver.run(s, {"a", "b", "c"});
  ASSERT_EQ(out.size(), 3u);
  // Warm-up: warmup_min samples of each variant alone, first to last.
  const std::vector<std::size_t> warmup = {0, 0, 1, 1, 2, 2};
  ASSERT_GE(s.calls.size(), warmup.size());
  EXPECT_EQ(std::vector<std::size_t>(s.calls.begin(), s.calls.begin() + 6), warmup);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].variant, std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(out[i].us.size(), 10u);  // the noise target is met at min_samples
    EXPECT_EQ(out[i].stop, StopReason::converged);
    EXPECT_NEAR(out[i].us.front(), 1.0 + static_cast<double>(i), 1e-3);
    // Sample k of every variant carries the clock read before round k.
    for (std::size_t k = 0; k < out[i].sm_clock_mhz.size(); ++k)
      EXPECT_DOUBLE_EQ(out[i].sm_clock_mhz[k], 1000.0 + static_cast<double>(k));
  }
  EXPECT_EQ(clock_reads, 10);
  EXPECT_EQ(s.calls.size(), 6u + 30u);
}

// Which variant each round sampled first (right after the clock probe), from the call log.
std::vector<std::size_t> first_of_each_round(const std::vector<std::size_t>& calls,
                                             std::size_t warmup_calls, std::size_t n) {
  std::vector<std::size_t> firsts;
  for (std::size_t k = warmup_calls; k + n <= calls.size(); k += n)
    firsts.push_back(calls[k]);
  return firsts;
}

TEST(SamplingDriver, RotatingOrderPutsEveryVariantFirstEquallyOften) {
  FakeSampler s(std::random_device{}());
  DriverParams p = quick_params();
  p.rule.min_samples = 12;  // 12 rounds of 4 variants: each first 3 times
  p.order = SampleOrder::rotating;
  const std::vector<VariantSamples> out =
      SamplingDriver(p, [] { return 1.0; }).run(s, {"fused", "pair", "rope", "cache_write"});
  for (const VariantSamples& v : out)
    ASSERT_EQ(v.us.size(), 12u);
  const std::vector<std::size_t> firsts = first_of_each_round(s.calls, 8, 4);
  ASSERT_EQ(firsts.size(), 12u);
  for (std::size_t r = 0; r < firsts.size(); ++r)
    EXPECT_EQ(firsts[r], r % 4) << "round " << r;
  // Samples still land with their own variant, whatever the order.
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(out[i].us.back(), 1.0 + static_cast<double>(i), 1e-3);
}

TEST(SamplingDriver, FixedOrderAlwaysStartsWithTheFirstVariant) {
  FakeSampler s(std::random_device{}());
  DriverParams p = quick_params();
  p.order = SampleOrder::fixed;
  SamplingDriver(p, [] { return 1.0; }).run(s, {"fused", "pair", "rope"});
  const std::vector<std::size_t> firsts = first_of_each_round(s.calls, 6, 3);
  ASSERT_EQ(firsts.size(), 10u);
  for (std::size_t f : firsts)
    EXPECT_EQ(f, 0u);
}

TEST(SamplingDriver, AVariantThatIsDoneLeavesTheRounds) {
  // Variant 1 is noisy (never converges before the timeout); 0 converges at min_samples.
  class Mixed : public Sampler {
   public:
    double sample(std::size_t index) override {
      ++count[index];
      return index == 0 ? 1.0 : ((count[index] % 2) ? 1.0 : 2.0);
    }
    int launches_per_sample() const override { return 1; }
    int count[2] = {0, 0};
  } s;
  DriverParams p = quick_params();
  p.rule.timeout_s = 0.05;
  p.rule.stable_window = 0;  // never `stable`: the noisy one must run to the timeout
  const std::vector<VariantSamples> out = SamplingDriver(p, [] { return 1.0; }).run(s, {"x", "y"});
  EXPECT_EQ(out[0].stop, StopReason::converged);
  EXPECT_EQ(out[0].us.size(), 10u);
  EXPECT_EQ(out[1].stop, StopReason::timeout);
  EXPECT_GT(out[1].us.size(), out[0].us.size());
}

}  // namespace
}  // namespace rkv

namespace rkv {
namespace {

// A sampler whose first sample after each clock reading pays `penalty` (as the first launch after
// the probe's synchronize may): the floor's reason for being sampled in full rounds.
class AfterProbePenalty : public Sampler {
 public:
  double sample(std::size_t) override {
    const double us = 2.0 + (after_probe ? penalty : 0.0) + 1e-6 * static_cast<double>(++n % 3);
    after_probe = false;
    return us;
  }
  int launches_per_sample() const override { return 100; }
  bool after_probe = false;
  double penalty = 0.5;
  int n = 0;
};

double pooled_median(const std::vector<VariantSamples>& out) {
  std::vector<double> all;
  for (const VariantSamples& v : out)
    all.insert(all.end(), v.us.begin(), v.us.end());
  return summarize(all).median;
}

TEST(SamplingDriver, AKernelSampledAloneCarriesWhatFollowsTheProbeInEverySample) {
  DriverParams p = quick_params();
  p.rule.min_samples = 40;
  AfterProbePenalty alone, in_rounds;
  const SamplingDriver a(p, [&] {
    alone.after_probe = true;
    return 1.0;
  });
  const SamplingDriver b(p, [&] {
    in_rounds.after_probe = true;
    return 1.0;
  });
  // Sampled alone (how the launch floor used to be taken) every sample follows the probe ...
  const double floor_alone = pooled_median(a.run(alone, {"empty"}));
  // ... while in a round of four, as a case's variants are, one sample in four does.
  const double floor_in_rounds = pooled_median(b.run(in_rounds, {"e", "e", "e", "e"}));
  EXPECT_NEAR(floor_alone, 2.5, 1e-3);
  EXPECT_NEAR(floor_in_rounds, 2.0, 1e-3);
}

}  // namespace
}  // namespace rkv
