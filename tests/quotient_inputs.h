// Inputs for the fp32 quotient tests (kernels/fp32_quotient.h), shared by the host test
// (tests/fp32_quotient_test.cpp) and the device test (tests/gpu_quotient_test.cu) so that both
// sides exhaust the same scales and values.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "host_numeric.h"

namespace rkv::quotient_inputs {

inline float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
inline std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// About 80 scales: powers of two across and beyond the fast range [2^-32, 2^33), its edges and
// their neighbours, ordinary values, fp32's extremes (subnormal, FLT_MAX), random ones, and
// scales the kernels never get (0, negative, infinite, NaN), which must still divide.
inline std::vector<float> scales() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> s = {0.7f,
                          1.3f,
                          0.01f,
                          1000.0f,
                          0.3137f,
                          0.0037f,
                          7.77f,
                          1 / 3.f,
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
                          0x1p-126f,
                          0x1p-140f,
                          0x1p127f,
                          0x1p-32f,
                          std::nextafter(0x1p-32f, 0.0f),
                          0x1.8p-32f,
                          0x1p33f,
                          std::nextafter(0x1p33f, 0.0f),
                          0x1.fp32f,
                          0.0f,
                          -0.7f,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN()};
  for (int k = -40; k <= 40; k += 4)
    s.push_back(std::ldexp(1.0f, k));
  std::mt19937 rng(14);
  std::uniform_real_distribution<float> unit(0.5f, 1.5f);
  std::uniform_int_distribution<int> exponent(-45, 45);
  for (int i = 0; i < 12; ++i)
    s.push_back(unit(rng));
  for (int i = 0; i < 12; ++i)
    s.push_back(std::ldexp(unit(rng), exponent(rng)));
  return s;
}

// Every bf16 code and every fp16 code, as floats (2^17 values).
inline std::vector<float> all_16_bit_codes() {
  std::vector<float> v;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    v.push_back(bf16_to_float(static_cast<std::uint16_t>(c)));
    v.push_back(fp16_to_float(static_cast<std::uint16_t>(c)));
  }
  return v;
}

// Signed zeros, infinities, NaNs, subnormals, FLT_MAX, and both edges of the fast input range
// [2^-90, 2^91) with their neighbours.
inline std::vector<float> edge_floats() {
  std::vector<float> v;
  for (std::uint32_t u : {0x00000000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7fffffffu,
                          0x00000001u, 0x00000002u, 0x003fffffu, 0x007fffffu, 0x00800000u,
                          0x00800001u, 0x7f7fffffu, 0x7f7ffffeu, 0x3f800000u, 0x3f800001u})
    for (std::uint32_t sign : {0u, 0x80000000u})
      v.push_back(float_of(u | sign));
  for (float edge : {0x1p-90f, 0x1p91f})
    for (int d = -3; d <= 3; ++d)
      for (float sign : {1.0f, -1.0f})
        v.push_back(sign * float_of(static_cast<std::uint32_t>(
                               static_cast<std::int64_t>(bits_of(edge)) + d)));
  return v;
}

// n random bit patterns: every exponent equally often, NaN payloads and subnormals included.
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::mt19937 rng(seed);
  for (float& x : v)
    x = float_of(static_cast<std::uint32_t>(rng()));
  return v;
}

// x whose quotient by s lies as close to an fp32 midpoint as x allows: for random q, the float
// nearest to m * s (m = q + ulp(q) / 2, exact in double, as is m * s) and its two neighbours
// either way, both signs.
inline std::vector<float> near_midpoints(float s, std::size_t count, std::uint32_t seed) {
  std::vector<float> v;
  if (!(s > 0.0f) || !std::isfinite(s)) return v;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> mant(0, 0x7fffff);
  std::uniform_int_distribution<int> exponent(-100, 100);
  while (v.size() < count) {
    const double q = std::ldexp(static_cast<double>(0x800000u | mant(rng)), exponent(rng) - 23);
    int e = 0;
    std::frexp(q, &e);
    const double m = q + std::ldexp(1.0, e - 25);  // halfway to the next float
    const float x = static_cast<float>(m * static_cast<double>(s));
    if (!std::isfinite(x) || x == 0.0f) continue;
    std::uint32_t u = bits_of(x);
    for (std::uint32_t k = u - 2; k != u + 3; ++k)
      for (std::uint32_t sign : {0u, 0x80000000u})
        v.push_back(float_of(k | sign));
  }
  return v;
}

// The hardest x for scale s: 2^21 consecutive fp32 midpoints of one binade (a random run of
// m = M 2^c, M odd in (2^24, 2^25)) are tried, and x is kept where the float nearest
// m * s = M S 2^(b+c) (s = S 2^b) misses it by less than 2^-12 of x's last bit, so x / s lies
// within about 2^-36 (relative) of m: about one M in 2000, the quotients whose final rounding is
// hardest to get right. Each x is moved by a random power of two (within the fast range, so the
// fast path sees them), both signs.
inline std::vector<float> hardest_near_midpoints(float s, std::uint32_t seed) {
  std::vector<float> v;
  if (!(s > 0.0f) || !std::isfinite(s) || s < 0x1p-126f) return v;
  int b = 0;
  const auto S = static_cast<std::uint64_t>(std::ldexp(std::frexp(s, &b), 24));  // s = S 2^(b-24)
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> shift(-55, 55);
  const std::uint64_t first = (1u << 24) + 1 + 2 * (rng() % (1u << 22));
  for (std::uint64_t M = first; M < first + (1u << 22); M += 2) {
    const std::uint64_t P = M * S;  // 48 or 49 bits
    const int sh = (P >> 48) != 0 ? 25 : 24;
    const std::uint64_t X = (P + (std::uint64_t{1} << (sh - 1))) >> sh;  // nearest, 24 bits
    const auto rem = static_cast<std::int64_t>(P) - static_cast<std::int64_t>(X << sh);
    if ((rem < 0 ? -rem : rem) >= (std::int64_t{1} << (sh - 12))) continue;
    // m = M 2^-24 (in [1, 2)), so x = X 2^sh S... in units: x = X 2^(sh + b - 24 - 24).
    const float x = std::ldexp(static_cast<float>(X), sh + b - 48 + shift(rng));
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

}  // namespace rkv::quotient_inputs
