// The fp8 cache store's quotient (kernels/fp8_quotient.h) on the host: the same functions the
// kernels run, with the host's RN8 model standing in for the hardware conversion, against RN8 of
// the exact rational quotient computed here in integers. Every bf16 and fp16 code and many fp32
// values (edge cases, random bit patterns, and values placed next to fp8 midpoints times the
// scale, where one rounding and two differ) at powers of two, 0.7, 1.3, tiny, huge, subnormal and
// random scales, both fp8 formats; the exact path alone; poor reciprocal estimates; and the
// golden model's double formula against the same rational reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "fp8_quotient.h"
#include "host_numeric.h"

namespace rkv {
namespace {

using detail::Fp8ChunkIn;
using detail::Fp8ChunkOut;
using detail::Fp8Divider;

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// ---- the rational reference: RN8(x / s) from integer comparisons only

// |f| = m * 2^e with m an integer below 2^24 (f finite, non-zero).
void split(float f, std::uint64_t& m, int& e) {
  const std::uint32_t u = bits_of(f) & 0x7fffffffu;
  const int be = static_cast<int>(u >> 23);
  m = be == 0 ? (u & 0x7fffffu) : ((u & 0x7fffffu) | 0x800000u);
  e = (be == 0 ? 1 : be) - 150;
}

int bit_length(std::uint64_t v) {
  return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

// Sign of A * 2^ea - B * 2^eb for A, B > 0 below 2^62.
int compare(std::uint64_t a, int ea, std::uint64_t b, int eb) {
  const int la = bit_length(a) + ea, lb = bit_length(b) + eb;
  if (la != lb) return la < lb ? -1 : 1;
  // Same magnitude: the exponents differ by at most 62, so one shift into 128 bits aligns them.
  unsigned __int128 wa = a, wb = b;
  if (ea > eb)
    wa <<= (ea - eb);
  else
    wb <<= (eb - ea);
  return wa < wb ? -1 : (wa > wb ? 1 : 0);
}

struct Fp8Table {
  std::vector<std::uint64_t> k;  // value of code c (0..max) as k[c] * 2^-18, exact
  std::uint8_t max_code;
};

Fp8Table table(bool e4m3) {
  Fp8Table t;
  t.max_code = e4m3 ? 0x7e : 0x7b;
  for (int c = 0; c <= t.max_code; ++c) {
    const float v = e4m3 ? fp8_e4m3_to_float(static_cast<std::uint8_t>(c))
                         : fp8_e5m2_to_float(static_cast<std::uint8_t>(c));
    t.k.push_back(static_cast<std::uint64_t>(std::ldexp(v, 18)));
  }
  return t;
}

// RN8 of the real x / s, saturating, NaN -> 0x7f; s finite and > 0.
std::uint8_t rational_rn8(float x, float s, const Fp8Table& t) {
  if (std::isnan(x)) return 0x7f;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isinf(x)) return sign | t.max_code;
  if (x == 0.0f) return sign;
  std::uint64_t xm, sm;
  int xe, se;
  split(x, xm, xe);
  split(s, sm, se);
  // t >= v  <=>  xm 2^xe >= k sm 2^(se - 18)
  auto at_least = [&](std::uint64_t k2, int shift) {  // x/s vs k2 * 2^(shift)
    return compare(xm, xe, k2 * sm, se + shift);
  };
  if (at_least(t.k[t.max_code], -18) >= 0) return sign | t.max_code;
  int lo = 0, hi = t.max_code;  // largest c with v_c <= x/s: in [lo, hi)
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (at_least(t.k[mid], -18) >= 0)
      lo = mid;
    else
      hi = mid;
  }
  const int c = at_least(t.k[hi], -18) >= 0 ? hi : lo;
  const int side = at_least(t.k[c] + t.k[c + 1], -19);  // against the midpoint
  const int code = side < 0 ? c : side > 0 ? c + 1 : (c % 2 == 0 ? c : c + 1);
  return sign | static_cast<std::uint8_t>(code);
}

// ---- inputs

std::vector<float> scales() {
  std::vector<float> s = {0.7f,
                          1.3f,
                          0.01f,
                          1000.0f,
                          0.3137f,
                          0.0037f,
                          7.77f,
                          1 / 3.0f,
                          3.0f,
                          448.0f,
                          0.75f,
                          1.5f,
                          0.1f,
                          57344.0f,
                          1e-30f,
                          1e30f,
                          3e38f,
                          1e-40f,
                          1e-45f,
                          0x1.fffffep-1f,
                          0x1.000002p0f,
                          std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::min()};
  for (int k : {-149, -140, -130, -126, -100, -20, -8, -1, 0, 1, 3, 8, 20, 100, 126, 127})
    s.push_back(std::ldexp(1.0f, k));
  std::mt19937 rng(14);
  std::uniform_real_distribution<float> unit(0.5f, 1.5f);
  std::uniform_int_distribution<int> exponent(-149, 127);
  for (int i = 0; i < 16; ++i)
    s.push_back(unit(rng));
  for (int i = 0; i < 16; ++i) {  // log-uniform over the whole positive range
    float v = std::ldexp(unit(rng), exponent(rng));
    if (!(v > 0.0f) || std::isinf(v)) v = 1.0f;
    s.push_back(v);
  }
  return s;
}

std::vector<float> all_16_bit_codes() {
  std::vector<float> v;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    v.push_back(bf16_to_float(static_cast<std::uint16_t>(c)));
    v.push_back(fp16_to_float(static_cast<std::uint16_t>(c)));
  }
  return v;
}

// fp32 values: specials, extremes and random bit patterns.
std::vector<float> float_inputs() {
  std::vector<float> v;
  for (std::uint32_t u :
       {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
        0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu})
    v.push_back(float_of(u));
  std::mt19937 rng(2024);
  for (int i = 0; i < 20000; ++i)
    v.push_back(float_of(static_cast<std::uint32_t>(rng())));
  return v;
}

// fp32 values next to m * s for every fp8 midpoint m: the rounded product and its neighbours,
// where a quotient rounded to fp32 first would land on m and round to even.
std::vector<float> near_midpoints(float s, const Fp8Table& t) {
  std::vector<float> v;
  for (int c = 0; c < t.max_code; ++c) {
    const double m = std::ldexp(static_cast<double>(t.k[c] + t.k[c + 1]), -19);
    float x = static_cast<float>(m * static_cast<double>(s));
    if (!std::isfinite(x) || x == 0.0f) continue;
    for (int i = 0; i < 3; ++i)
      x = std::nextafter(x, 0.0f);
    for (int i = 0; i < 7; ++i) {
      v.push_back(x);
      v.push_back(-x);
      x = std::nextafter(x, std::numeric_limits<float>::infinity());
    }
  }
  return v;
}

template <CacheDType C>
std::uint8_t exact_one(float x, float s) {
  return detail::fp8_quotient_exact<C>(x, s);
}

// Runs the chunked function (the kernels' entry point) over `in` in chunks of 8 and the exact
// path alone, both against the rational reference; returns the number of wrong codes.
template <CacheDType C>
int check(const std::vector<float>& in, float s, const Fp8Divider& d, const char* what) {
  const Fp8Table t = table(C == CacheDType::fp8_e4m3);
  int bad = 0;
  for (std::size_t i = 0; i + 8 <= in.size(); i += 8) {
    Fp8ChunkIn<8> chunk;
    for (int j = 0; j < 8; ++j)
      chunk.x[j] = in[i + j];
    const Fp8ChunkOut<8> got = detail::fp8_quotients<C, 8>(chunk, d);
    for (int j = 0; j < 8; ++j) {
      const float x = in[i + j];
      const std::uint8_t want = rational_rn8(x, s, t);
      const std::uint8_t alone = exact_one<C>(x, s);
      if ((got.code[j] != want || alone != want) && ++bad <= 5)
        ADD_FAILURE() << what << (C == CacheDType::fp8_e4m3 ? " e4m3" : " e5m2")
                      << ": x = " << std::hexfloat << x << ", s = " << s << std::defaultfloat
                      << ": want 0x" << std::hex << int{want} << ", chunk 0x" << int{got.code[j]}
                      << ", exact path 0x" << int{alone} << std::dec;
    }
  }
  return bad;
}

// ---- the reference itself

TEST(Fp8Reference, RationalAgreesWithTheFloatModelOnFloats) {
  // With s = 1 the quotient is x itself: the integer reference must equal the float RN8 model
  // (checked against the hardware elsewhere) on every input, ties and saturation included.
  for (bool e4m3 : {true, false}) {
    const Fp8Table t = table(e4m3);
    std::vector<float> in = all_16_bit_codes();
    const std::vector<float> more = float_inputs();
    in.insert(in.end(), more.begin(), more.end());
    for (float m : near_midpoints(1.0f, t))
      in.push_back(m);
    int bad = 0;
    for (float x : in) {
      const std::uint8_t want =
          e4m3 ? float_to_fp8_e4m3_satfinite(x) : float_to_fp8_e5m2_satfinite(x);
      if (rational_rn8(x, 1.0f, t) != want && ++bad <= 5)
        ADD_FAILURE() << std::hexfloat << x << " e4m3=" << e4m3;
    }
    EXPECT_EQ(bad, 0);
  }
}

TEST(Fp8Reference, DoubleRoundingOfFloatsEqualsFloatRounding) {
  std::vector<float> in = all_16_bit_codes();
  const std::vector<float> more = float_inputs();
  in.insert(in.end(), more.begin(), more.end());
  for (float x : in) {
    ASSERT_EQ(double_to_fp8_e4m3_satfinite(x), float_to_fp8_e4m3_satfinite(x)) << x;
    ASSERT_EQ(double_to_fp8_e5m2_satfinite(x), float_to_fp8_e5m2_satfinite(x)) << x;
  }
}

// The golden model's formula: RN8 of the double quotient is RN8 of the exact one.
TEST(Fp8Reference, GoldenDoubleQuotientIsExact) {
  for (bool e4m3 : {true, false}) {
    const Fp8Table t = table(e4m3);
    int bad = 0;
    for (float s : scales()) {
      std::vector<float> in = all_16_bit_codes();
      const std::vector<float> near = near_midpoints(s, t);
      in.insert(in.end(), near.begin(), near.end());
      for (float x : in) {
        const double q = static_cast<double>(x) / static_cast<double>(s);
        const std::uint8_t got =
            e4m3 ? double_to_fp8_e4m3_satfinite(q) : double_to_fp8_e5m2_satfinite(q);
        if (got != rational_rn8(x, s, t) && ++bad <= 5)
          ADD_FAILURE() << std::hexfloat << x << " / " << s;
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

// Rounding the quotient to fp32 first (what v4 and the previous golden model did) differs from
// rounding it once; the contract is the single rounding.
TEST(Fp8Reference, SingleRoundingDiffersFromRoundingToFloatFirst) {
  const Fp8Table t = table(true);
  // bf16 0x1.cp-9 / 0.7f is just above 2.5 subnormal steps (2^-9 each): 3 steps, not the even 2
  // that the fp32 quotient (exactly 2.5 steps) would round to.
  const float x = 0x1.cp-9f, s = 0.7f;
  EXPECT_EQ(float_to_fp8_e4m3_satfinite(x / s), 0x02);
  EXPECT_EQ(rational_rn8(x, s, t), 0x03);
  const Fp8ChunkIn<8> chunk = {{x, x, x, x, x, x, x, x}};
  const Fp8ChunkOut<8> got = detail::fp8_quotients<CacheDType::fp8_e4m3, 8>(chunk, Fp8Divider(s));
  EXPECT_EQ(got.code[5], 0x03);
}

// ---- the function the kernels run

TEST(Fp8Quotient, Every16BitCodeAtEveryScale) {
  const std::vector<float> in = all_16_bit_codes();
  for (float s : scales()) {
    EXPECT_EQ(check<CacheDType::fp8_e4m3>(in, s, Fp8Divider(s), "16-bit"), 0) << s;
    EXPECT_EQ(check<CacheDType::fp8_e5m2>(in, s, Fp8Divider(s), "16-bit"), 0) << s;
  }
}

TEST(Fp8Quotient, FloatsAndValuesNextToMidpointsTimesTheScale) {
  const std::vector<float> base = float_inputs();
  for (float s : scales()) {
    for (bool e4m3 : {true, false}) {
      std::vector<float> in = base;
      const std::vector<float> near = near_midpoints(s, table(e4m3));
      in.insert(in.end(), near.begin(), near.end());
      if (e4m3)
        EXPECT_EQ(check<CacheDType::fp8_e4m3>(in, s, Fp8Divider(s), "fp32"), 0) << s;
      else
        EXPECT_EQ(check<CacheDType::fp8_e5m2>(in, s, Fp8Divider(s), "fp32"), 0) << s;
    }
  }
}

// The proof assumes nothing about the reciprocal estimate: poor, zero, infinite or exact ones
// only change how often the exact path runs.
TEST(Fp8Quotient, AnyReciprocalEstimateGivesTheSameCodes) {
  std::vector<float> in = all_16_bit_codes();
  in.resize(in.size() / 4);  // a quarter of the codes per estimate keeps this quick
  for (float s : {0.7f, 1.3f, 1.0f, 0.75f, 1e-40f, 3e38f}) {
    const float r = 1.0f / s;
    const float inf = std::numeric_limits<float>::infinity();
    for (float r0 : {r, std::nextafter(r, 0.0f), std::nextafter(r, inf), r * (1 + 0x1p-12f),
                     r * (1 - 0x1p-12f), 0.0f, inf, std::numeric_limits<float>::max(),
                     std::numeric_limits<float>::denorm_min()}) {
      EXPECT_EQ(check<CacheDType::fp8_e4m3>(in, s, Fp8Divider(s, r0), "estimate"), 0)
          << s << " " << r0;
      EXPECT_EQ(check<CacheDType::fp8_e5m2>(in, s, Fp8Divider(s, r0), "estimate"), 0)
          << s << " " << r0;
    }
  }
}

// With a correctly rounded reciprocal (the host's), the filter is armed for every scale whose
// reciprocal is normal, and power-of-two scales use the exact reciprocal itself.
TEST(Fp8Quotient, FilterIsArmedForOrdinaryScales) {
  for (float s : scales()) {
    const Fp8Divider d(s);
    if (s < 0x1p-125f || s > 0x1p125f) continue;
    EXPECT_GT(d.lo, 0.0f) << s;
    EXPECT_TRUE(std::isfinite(d.hi)) << s;
    int e = 0;
    const bool pow2 = std::frexp(s, &e) == 0.5f;
    EXPECT_EQ(d.lo == d.hi, pow2) << s;
  }
}

}  // namespace
}  // namespace rkv
