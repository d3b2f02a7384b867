// host_numeric.cpp against the CUDA headers' host paths (the same headers, compiled by the host
// compiler, that document what the device instructions do), code by code and on random floats.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "host_numeric.h"

namespace rkv {
namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// ---- CUDA's host conversions, the oracle
std::uint16_t cuda_bf16(float x) {
  return __bfloat16_as_ushort(__float2bfloat16_rn(x));
}
std::uint16_t cuda_fp16(float x) {
  return __half_as_ushort(__float2half_rn(x));
}
std::uint8_t cuda_e4m3(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
}
std::uint8_t cuda_e5m2(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
}
float cuda_bf16_to_float(std::uint16_t b) {
  return __bfloat162float(__ushort_as_bfloat16(b));
}
float cuda_fp16_to_float(std::uint16_t b) {
  return __half2float(__ushort_as_half(b));
}
float cuda_fp8_to_float(std::uint8_t b, __nv_fp8_interpretation_t kind) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(b, kind)));
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- decoding: every code

TEST(Fp8Decode, EveryE4m3CodeMatchesCuda) {
  for (int b = 0; b < 256; ++b)
    EXPECT_EQ(bits_of(fp8_e4m3_to_float(b)), bits_of(cuda_fp8_to_float(b, __NV_E4M3))) << b;
}

TEST(Fp8Decode, EveryE5m2CodeMatchesCuda) {
  for (int b = 0; b < 256; ++b)
    EXPECT_EQ(bits_of(fp8_e5m2_to_float(b)), bits_of(cuda_fp8_to_float(b, __NV_E5M2))) << b;
}

TEST(Fp8Decode, KnownCodes) {
  EXPECT_EQ(fp8_e4m3_to_float(0x7e), 448.0f);
  EXPECT_EQ(fp8_e4m3_to_float(0xfe), -448.0f);
  EXPECT_EQ(fp8_e4m3_to_float(0x01), std::ldexp(1.0f, -9));  // smallest subnormal
  EXPECT_EQ(fp8_e4m3_to_float(0x08), std::ldexp(1.0f, -6));  // smallest normal
  EXPECT_EQ(fp8_e4m3_to_float(0x38), 1.0f);
  EXPECT_EQ(bits_of(fp8_e4m3_to_float(0x80)), 0x80000000u);  // -0
  EXPECT_EQ(bits_of(fp8_e4m3_to_float(0xff)), 0x7fffffffu);  // NaN, sign dropped
  EXPECT_EQ(fp8_e4m3_to_float(0x78), 256.0f);                // e4m3 has no inf: exp 15 is finite
  EXPECT_EQ(fp8_e5m2_to_float(0x7b), 57344.0f);
  EXPECT_EQ(fp8_e5m2_to_float(0x7c), kInf);
  EXPECT_EQ(fp8_e5m2_to_float(0xfc), -kInf);
  EXPECT_EQ(bits_of(fp8_e5m2_to_float(0xfd)), 0x7fffffffu);
  EXPECT_EQ(fp8_e5m2_to_float(0x01), std::ldexp(1.0f, -16));
  EXPECT_EQ(fp8_e5m2_to_float(0x3c), 1.0f);
}

TEST(Bf16, EveryPatternDecodesAndReencodesLikeCuda) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float x = bf16_to_float(h);
    ASSERT_EQ(bits_of(x), bits_of(cuda_bf16_to_float(h))) << b;
    ASSERT_EQ(float_to_bf16(x), cuda_bf16(x)) << b;
    // Every value round-trips; NaNs all become the canonical one.
    ASSERT_EQ(float_to_bf16(x), std::isnan(x) ? 0x7fff : h) << b;
  }
}

TEST(Fp16, EveryPatternDecodesAndReencodesLikeCuda) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float x = fp16_to_float(h);
    ASSERT_EQ(bits_of(x), bits_of(cuda_fp16_to_float(h))) << b;
    ASSERT_EQ(float_to_fp16(x), cuda_fp16(x)) << b;
    ASSERT_EQ(float_to_fp16(x), std::isnan(x) ? 0x7fff : h) << b;
  }
}

TEST(Fp8Encode, EveryCodeRoundTrips) {
  for (int b = 0; b < 256; ++b) {
    const auto code = static_cast<std::uint8_t>(b);
    const float e4 = fp8_e4m3_to_float(code);
    EXPECT_EQ(float_to_fp8_e4m3_satfinite(e4), std::isnan(e4) ? 0x7f : code) << b;
    const float e5 = fp8_e5m2_to_float(code);
    // e5m2's infinities are out of range for satfinite: they clamp to +-57344.
    const int want5 = std::isnan(e5) ? 0x7f : std::isinf(e5) ? (code & 0x80) | 0x7b : code;
    EXPECT_EQ(float_to_fp8_e5m2_satfinite(e5), want5) << b;
  }
}

// ---- rounding boundaries: the expected codes are worked out by hand, and CUDA must agree.

struct Case16 {
  float x;
  std::uint16_t want;
};

TEST(Bf16, RoundingEdges) {
  const Case16 cases[] = {
      {1.0f + std::ldexp(1.0f, -8), 0x3f80},                          // tie, 1.0 is even
      {1.0f + 3 * std::ldexp(1.0f, -8), 0x3f82},                      // tie, 1+2^-6 is even
      {1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -23), 0x3f81},  // just past the tie
      {float_of(0x7f7f8000u), 0x7f80},  // tie above the largest finite: inf
      {float_of(0x7f7f7fffu), 0x7f7f},
      {kInf, 0x7f80},
      {-kInf, 0xff80},
      {kNaN, 0x7fff},
      {-kNaN, 0x7fff},
      {float_of(0xffc00001u), 0x7fff},  // any NaN payload
      {float_of(0x00008000u), 0x0000},  // float subnormal, tie to even 0
      {float_of(0x00018000u), 0x0002},  // tie to even 2
      {float_of(0x807fffffu), 0x8080},  // largest subnormal rounds to -2^-126
  };
  for (const Case16& c : cases) {
    EXPECT_EQ(float_to_bf16(c.x), c.want) << std::hex << bits_of(c.x);
    EXPECT_EQ(cuda_bf16(c.x), c.want) << std::hex << bits_of(c.x);
  }
}

TEST(Fp16, RoundingEdges) {
  const Case16 cases[] = {
      {65504.0f, 0x7bff},
      {65519.99f, 0x7bff},
      {65520.0f, 0x7c00},  // tie above the largest finite: 0x7bff is odd, so inf
      {-1e6f, 0xfc00},
      {kInf, 0x7c00},
      {-kInf, 0xfc00},
      {kNaN, 0x7fff},
      {-kNaN, 0x7fff},
      {1.0f + std::ldexp(1.0f, -11), 0x3c00},                   // tie, even
      {1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02},               // tie, even
      {std::ldexp(1.0f, -14), 0x0400},                          // smallest normal
      {std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25), 0x0400},  // tie 0x3ff / 0x400
      {std::ldexp(1.0f, -24), 0x0001},                          // smallest subnormal
      {std::ldexp(1.0f, -25), 0x0000},                          // tie to even 0
      {std::ldexp(1.0f, -25) + std::ldexp(1.0f, -40), 0x0001},  // just past it
      {-std::ldexp(1.0f, -26), 0x8000},
      {3 * std::ldexp(1.0f, -25), 0x0002},  // 1.5 units: tie to even 2
      {5 * std::ldexp(1.0f, -25), 0x0002},  // 2.5 units: tie to even 2
      {1e-40f, 0x0000},
  };
  for (const Case16& c : cases) {
    EXPECT_EQ(float_to_fp16(c.x), c.want) << std::hex << bits_of(c.x);
    EXPECT_EQ(cuda_fp16(c.x), c.want) << std::hex << bits_of(c.x);
  }
}

struct Case8 {
  float x;
  std::uint8_t want;
};

TEST(Fp8Encode, E4m3Edges) {
  const Case8 cases[] = {
      {448.0f, 0x7e},
      {464.0f, 0x7e},  // the tie above 448 (S.1111.111 is NaN)
      {480.0f, 0x7e},
      {1e30f, 0x7e},  // saturate
      {kInf, 0x7e},
      {-kInf, 0xfe},  // infinity saturates too under satfinite
      {-500.0f, 0xfe},
      {kNaN, 0x7f},  // NaN: 0x7f whatever its sign
      {-kNaN, 0x7f},
      {float_of(0xff800001u), 0x7f},
      {1.0625f, 0x38},                                       // tie between 1 and 1.125: even
      {1.1875f, 0x3a},                                       // tie between 1.125 and 1.25: even
      {240.0f, 0x77},                                        // 1.875 * 2^7
      {std::ldexp(1.0f, -9), 0x01},                          // smallest subnormal
      {std::ldexp(1.0f, -10), 0x00},                         // half of it: tie to even 0
      {3 * std::ldexp(1.0f, -10), 0x02},                     // 1.5 units: tie to even 2
      {std::ldexp(1.0f, -6) - std::ldexp(1.0f, -10), 0x08},  // tie 7 units / smallest normal
      {-std::ldexp(1.0f, -11), 0x80},
      {-0.0f, 0x80},
      {1e-40f, 0x00},
  };
  for (const Case8& c : cases) {
    EXPECT_EQ(float_to_fp8_e4m3_satfinite(c.x), c.want) << c.x;
    EXPECT_EQ(cuda_e4m3(c.x), c.want) << c.x;
  }
}

TEST(Fp8Encode, E5m2Edges) {
  const Case8 cases[] = {
      {57344.0f, 0x7b},
      {61439.0f, 0x7b},  // below the would-be rounding to inf
      {61440.0f, 0x7b},
      {1e30f, 0x7b},  // saturate
      {kInf, 0x7b},
      {-kInf, 0xfb},
      {kNaN, 0x7f},
      {-kNaN, 0x7f},
      {1.125f, 0x3c},                     // tie between 1 and 1.25: even
      {1.375f, 0x3e},                     // tie between 1.25 and 1.5: even
      {std::ldexp(1.0f, -16), 0x01},      // smallest subnormal
      {std::ldexp(1.0f, -17), 0x00},      // tie to even 0
      {3 * std::ldexp(1.0f, -17), 0x02},  // tie to even 2
      {-0.0f, 0x80},
  };
  for (const Case8& c : cases) {
    EXPECT_EQ(float_to_fp8_e5m2_satfinite(c.x), c.want) << c.x;
    EXPECT_EQ(cuda_e5m2(c.x), c.want) << c.x;
  }
}

// ---- random float bit patterns. Half are any pattern (every exponent equally likely); half have
// an exponent in [2^-30, 2^17], where the fp16 and fp8 subnormals, ties and saturation live.
TEST(Conversions, RandomFloatsMatchCuda) {
  std::mt19937_64 rng(20240611);
  constexpr int kSamples = 4'000'000;
  int mismatches = 0;
  for (int i = 0; i < kSamples && mismatches < 10; ++i) {
    std::uint32_t u = static_cast<std::uint32_t>(rng());
    if (i & 1) u = (u & 0x807fffffu) | (97u + static_cast<std::uint32_t>(rng() % 48)) << 23;
    const float x = float_of(u);
    const bool ok = float_to_bf16(x) == cuda_bf16(x) && float_to_fp16(x) == cuda_fp16(x) &&
                    float_to_fp8_e4m3_satfinite(x) == cuda_e4m3(x) &&
                    float_to_fp8_e5m2_satfinite(x) == cuda_e5m2(x);
    if (!ok) {
      ++mismatches;
      ADD_FAILURE() << "mismatch for float bits 0x" << std::hex << u;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// ---- load_scalar / store_scalar

TEST(Scalar, StoresRoundAndLoadsWiden) {
  std::uint16_t h[2] = {};
  store_scalar(DType::bf16, h, 1, 1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20));
  EXPECT_EQ(h[0], 0);
  EXPECT_EQ(h[1], 0x3f81);
  EXPECT_EQ(load_scalar(DType::bf16, h, 1), 1.0f + std::ldexp(1.0f, -7));
  store_scalar(DType::fp16, h, 0, -2.5f);
  EXPECT_EQ(h[0], 0xc100);
  EXPECT_EQ(load_scalar(DType::fp16, h, 0), -2.5f);
  float f[2] = {};
  store_scalar(DType::fp32, f, 1, 0.1f);
  EXPECT_EQ(f[1], 0.1f);
  EXPECT_EQ(load_scalar(DType::fp32, f, 1), 0.1f);
}

TEST(Scalar, Fp32StoreWritesTheDeviceCanonicalNaN) {
  // x86 makes the negative NaN 0xffc00000 from inf * 0; the device makes 0x7fffffff.
  volatile float zero = 0.0f;
  const float host_nan = kInf * zero;
  std::uint32_t out = 0;
  store_scalar(DType::fp32, &out, 0, host_nan);
  EXPECT_EQ(out, 0x7fffffffu);
  store_scalar(DType::fp32, &out, 0, -kInf);
  EXPECT_EQ(out, 0xff800000u);
}

}  // namespace
}  // namespace rkv
