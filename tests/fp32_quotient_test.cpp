// The fp8 store's first rounding, RN32(x / scale) without a division (kernels/fp32_quotient.h),
// run on the host exactly as the kernels run it, against the host's IEEE float division: bit
// for bit, for every bf16 and fp16 code, edge values, 20 million random floats of every
// exponent, and values whose quotient lies next to an fp32 midpoint, at ~80 scales. Each value
// is checked twice: through the fast path alone (wherever it applies, so that a mixed chunk's
// fallback cannot hide a fast-path error) and through the chunked entry point the kernels call.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "fp32_quotient.h"
#include "quotient_inputs.h"

namespace rkv {
namespace {

using detail::FloatChunk;
using detail::ScaleDivider;
using quotient_inputs::bits_of;

struct Tally {
  std::int64_t checked = 0, fast = 0, bad = 0;
};

// Checks every x of `in` divided by s; reports the first few differences.
void check(const std::vector<float>& in, float s, Tally& t) {
  const ScaleDivider d(s);
  auto report = [&](float x, float got, const char* path) {
    if (++t.bad <= 5)
      ADD_FAILURE() << path << ": " << std::hexfloat << x << " / " << s << " = " << x / s
                    << ", got " << got << std::defaultfloat;
  };
  for (std::size_t i = 0; i + 8 <= in.size(); i += 8) {
    FloatChunk<8> chunk;
    for (int j = 0; j < 8; ++j)
      chunk.v[j] = in[i + j];
    const FloatChunk<8> got = detail::quotients<8>(chunk, d);
    for (int j = 0; j < 8; ++j) {
      const float x = chunk.v[j];
      const std::uint32_t want = bits_of(x / s);
      ++t.checked;
      if (bits_of(got.v[j]) != want) report(x, got.v[j], "chunk");
      if (d.fast && detail::fast_quotient_input(x)) {
        ++t.fast;
        const float q = detail::fast_quotient(x, d);
        if (bits_of(q) != want) report(x, q, "fast path");
      }
    }
  }
}

TEST(Fp32Quotient, Every16BitCodeAtEveryScale) {
  const std::vector<float> in = quotient_inputs::all_16_bit_codes();
  Tally t;
  for (float s : quotient_inputs::scales())
    check(in, s, t);
  EXPECT_EQ(t.bad, 0);
  EXPECT_GT(t.fast, t.checked / 2);  // the fast path, not the fallback, is what got tested
}

TEST(Fp32Quotient, EdgeValuesAndValuesNextToMidpoints) {
  Tally t;
  std::uint32_t seed = 1;
  for (float s : quotient_inputs::scales()) {
    std::vector<float> in = quotient_inputs::edge_floats();
    const std::vector<float> near = quotient_inputs::near_midpoints(s, 100000, seed);
    const std::vector<float> hard = quotient_inputs::hardest_near_midpoints(s, seed++);
    in.insert(in.end(), near.begin(), near.end());
    in.insert(in.end(), hard.begin(), hard.end());
    check(in, s, t);
  }
  EXPECT_EQ(t.bad, 0);
  EXPECT_GT(t.checked, 2'000'000);
}

// 20 million random bit patterns (every exponent), 250 thousand per scale.
TEST(Fp32Quotient, RandomFloatsAtEveryScale) {
  Tally t;
  std::uint32_t seed = 100;
  for (float s : quotient_inputs::scales())
    check(quotient_inputs::random_floats(250'000, seed++), s, t);
  EXPECT_EQ(t.bad, 0);
  EXPECT_GE(t.checked, 20'000'000);
  EXPECT_GT(t.fast, t.checked / 3);
}

// The inputs are hard enough to catch a quotient that is merely close: RN(x * RN(1/s)) alone,
// and the fast path's residual taken as x - q s and added (which loses -0's sign), both fail.
TEST(Fp32Quotient, InputsCatchAnUncorrectedOrSignLosingQuotient) {
  std::int64_t product_wrong = 0, zero_sign_wrong = 0;
  for (float s : {0.7f, 1.3f, 0.3137f, 7.77f}) {
    const ScaleDivider d(s);
    for (float x : quotient_inputs::near_midpoints(s, 20000, 7))
      product_wrong += bits_of(x * d.recip) != bits_of(x / s);
    const float x = -0.0f;
    const float e = std::fma(-(x * d.recip), s, x);  // +0
    zero_sign_wrong += bits_of(std::fma(e, d.recip, x * d.recip)) != bits_of(x / s);
    EXPECT_EQ(bits_of(detail::fast_quotient(x, d)), bits_of(x / s));
  }
  EXPECT_GT(product_wrong, 1000);
  EXPECT_EQ(zero_sign_wrong, 4);
}

TEST(Fp32Quotient, FastRangesAreTheDocumentedOnes) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float s : {0x1p-32f, 0.7f, 1.0f, 0x1.fffffep32f})
    EXPECT_TRUE(ScaleDivider(s).fast) << s;
  for (float s : {std::nextafter(0x1p-32f, 0.0f), 0x1p33f, 0.0f, -0.7f, 1e-40f, inf, -inf,
                  std::numeric_limits<float>::quiet_NaN()})
    EXPECT_FALSE(ScaleDivider(s).fast) << s;
  for (float x : {0.0f, -0.0f, 0x1p-90f, -0x1p-90f, 0x1.fffffep90f, -1.5f, 65504.0f})
    EXPECT_TRUE(detail::fast_quotient_input(x)) << x;
  for (float x : {std::nextafter(0x1p-90f, 0.0f), 0x1p91f, -0x1p91f, 1e-40f, inf, -inf,
                  std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::max()})
    EXPECT_FALSE(detail::fast_quotient_input(x)) << x;
}

}  // namespace
}  // namespace rkv
