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
