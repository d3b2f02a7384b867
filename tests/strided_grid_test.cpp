// strided_grid_ctas (kernels/work_plan.h): the CTA count of the fused kernel's strided grid must
// let every thread meet as many distinct units of a token as the CTA size allows, and cost at
// most a sixteenth of the resident CTAs.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <set>

#include "work_plan.h"

namespace rkv {
namespace {

constexpr int kThreads = 128;         // the fused kernel's CTA
constexpr std::int64_t kH200 = 1188;  // 132 SMs x 9 resident CTAs (52 registers)

// The units of one token that the thread at global index `first` meets over a whole period.
std::set<std::int64_t> units_met(std::int64_t first, std::int64_t ctas, int threads,
                                 std::int64_t units_per_token) {
  const std::int64_t stride = ctas * threads;
  std::set<std::int64_t> met;
  for (std::int64_t i = 0; i < units_per_token; ++i)
    met.insert((first + i * stride) % units_per_token);
  return met;
}

TEST(StridedGrid, ResonantShapesOfTheNeverSlowerSurveyGetEveryUnitSpread) {
  // Units per token of the survey's worst cases: 32x8x128 and 28x4x128 at rot = 64 (352),
  // 40x8x80 neox rot = 64 (288), 32x32x128 neox rot = 64 (1024), MLA 16 neox (132), 8x1x64 (44).
  for (const std::int64_t u : {352, 288, 1024, 132, 44, 512, 768}) {
    SCOPED_TRACE(u);
    // The problem being fixed: with every resident CTA, some threads meet at most two units.
    EXPECT_LE(units_met(0, kH200, kThreads, u).size(), 2u);
    const std::int64_t ctas = strided_grid_ctas(kH200, u, kThreads);
    EXPECT_LT(ctas, kH200);
    EXPECT_GE(ctas, kH200 - kH200 / 16);
    const std::int64_t spread = u / std::gcd<std::int64_t>(kThreads, u);
    for (const std::int64_t first : {0, 1, 31, 77, 127, 4096 + 5})
      EXPECT_EQ(units_met(first, ctas, kThreads, u).size(), static_cast<std::size_t>(spread));
  }
}

TEST(StridedGrid, KeepsEveryResidentCtaWhenTheStrideAlreadySpreadsTheUnits) {
  // 32x8x128 full rotary (448 units: S shares only 64 with it) and MLA 16 gptj (200).
  EXPECT_EQ(strided_grid_ctas(kH200, 448, kThreads), kH200);
  EXPECT_EQ(strided_grid_ctas(kH200, 200, kThreads), kH200);
  // A token that one CTA's threads divide: every thread meets one unit whatever the grid, and
  // every warp does the same work, so nothing is dropped.
  EXPECT_EQ(strided_grid_ctas(kH200, 64, kThreads), kH200);
}

TEST(StridedGrid, PicksTheLargestCountWithTheFewestSharedFactors) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<std::int64_t> resident_of(1, 6000), units_of(1, 6000);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t resident = resident_of(rng), u = units_of(rng);
    const int threads = 32 << (trial % 4);
    SCOPED_TRACE(::testing::Message()
                 << "resident " << resident << " units " << u << " threads " << threads);
    const std::int64_t ctas = strided_grid_ctas(resident, u, threads);
    ASSERT_LE(ctas, resident);
    ASSERT_GE(ctas, resident - resident / 16);
    const std::int64_t least = std::gcd<std::int64_t>(threads, u);
    auto fits = [&](std::int64_t c) { return std::gcd(c * threads, u) == least; };
    if (ctas < resident) {
      ASSERT_TRUE(fits(ctas));
    }
    // Nothing between the answer and `resident` fits: the answer drops as few CTAs as it can.
    const std::int64_t top = fits(ctas) ? resident : ctas - 1;
    for (std::int64_t c = ctas + 1; c <= top; ++c)
      ASSERT_FALSE(fits(c));
    if (!fits(ctas)) {  // no count within the allowance fits: everything stays resident
      ASSERT_EQ(ctas, resident);
      for (std::int64_t c = resident; c >= resident - resident / 16 && c > 0; --c)
        ASSERT_FALSE(fits(c));
    }
  }
}

TEST(StridedGrid, PassesDegenerateInputsThrough) {
  EXPECT_EQ(strided_grid_ctas(0, 352, kThreads), 0);
  EXPECT_EQ(strided_grid_ctas(-3, 352, kThreads), -3);
  EXPECT_EQ(strided_grid_ctas(kH200, 0, kThreads), kH200);
  EXPECT_EQ(strided_grid_ctas(kH200, 352, 0), kH200);
  EXPECT_EQ(strided_grid_ctas(1, 352, kThreads), 1);
}

}  // namespace
}  // namespace rkv
