#include "timing/variant_samples.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace rkv {
namespace {

VariantSamples pass(std::vector<double> us, std::vector<double> mhz, StopReason stop) {
  return VariantSamples{"fused", std::move(us), std::move(mhz), stop, {}};
}

TEST(SummarizePasses, PoolsSamplesAndKeepsEachPass) {
  const VariantResult r =
      summarize_passes({pass({1, 2, 3}, {1980, 1980, 1980}, StopReason::converged),
                        pass({10, 11}, {1980, 1700}, StopReason::converged)},
                       1980);
  EXPECT_EQ(r.variant, "fused");
  EXPECT_EQ(r.us.n, 5);
  EXPECT_DOUBLE_EQ(r.us.median, 3);  // of 1 2 3 10 11
  EXPECT_DOUBLE_EQ(r.us.max, 11);
  ASSERT_EQ(r.passes.size(), 2u);
  EXPECT_DOUBLE_EQ(r.passes[0].median, 2);
  EXPECT_DOUBLE_EQ(r.passes[1].median, 10.5);
  EXPECT_EQ(r.throttled_samples, 1);  // 1700 < 0.9 * 1980
  EXPECT_DOUBLE_EQ(r.sm_clock_mhz_median, 1980);
  EXPECT_EQ(r.stop_reason, "converged");
}

TEST(SummarizePasses, TheLeastSettledPassNamesTheStop) {
  const auto with = [](StopReason a, StopReason b) {
    return summarize_passes({pass({1}, {1980}, a), pass({1}, {1980}, b)}, 1980).stop_reason;
  };
  EXPECT_EQ(with(StopReason::converged, StopReason::stable), "stable");
  EXPECT_EQ(with(StopReason::timeout, StopReason::converged), "timeout");
  EXPECT_EQ(with(StopReason::stable, StopReason::stable), "stable");
}

TEST(SummarizePasses, RefusesNothingAndMixedVariants) {
  EXPECT_THROW(summarize_passes({}, 1980), std::invalid_argument);
  VariantSamples other = pass({1}, {1980}, StopReason::converged);
  other.variant = "pair";
  EXPECT_THROW(summarize_passes({pass({1}, {1980}, StopReason::converged), other}, 1980),
               std::invalid_argument);
}

}  // namespace
}  // namespace rkv
