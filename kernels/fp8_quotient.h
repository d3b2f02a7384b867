// The fp8 cache store's arithmetic: code = RN8(x / s), the exact real quotient of a q/k/v value x
// (any float) by a scale s (finite, > 0) rounded once to the nearest fp8 value, ties to even,
// saturating to the largest finite value (448 e4m3, 57344 e5m2; infinities too), NaN to 0x7f
// (docs/design.md). Exact for every input, in fp32 only, with no per-element FP64 and no division.
//
// The same code runs on the host (tests exhaust it there) and on the device (both kernels call
// it). The only two primitives that differ are RN8 of a float (the hardware conversion on the
// device; reference/host_numeric.cpp's model on the host, which tests/numeric_test.cpp and a GPU
// test check against the hardware on every code and millions of floats) and a reciprocal
// estimate (the hardware's approximate rcp on the device, the division on the host): the proof
// below assumes nothing about the estimate's accuracy, only that RN8 is correct.
//
// ---- How (per scale, then per element)
// Per scale (Fp8Divider): from any estimate r0 of 1/s, a bracket lo = RN(r0 (1 - 2^-21)),
// hi = RN(r0 (1 + 2^-21)), kept only where the exact signs of fma(s, lo, -(1 - 2^-23)) and
// fma(s, hi, -(1 + 2^-23)) show s*lo <= 1 - 2^-23 and s*hi >= 1 + 2^-23; a bound that fails is
// replaced by lo = 0 or hi = +inf. When fma(s, r0, -1) == 0 (r0 = 1/s exactly, s a power of two)
// lo = hi = r0.
// Per element (the fast filter): qlo = RN(x*lo), qhi = RN(x*hi); if RN8(qlo) == RN8(qhi) that is
// the answer. Otherwise (rare: a midpoint between fp8 values lies within ~2^-20 of the quotient,
// or the scale is so extreme that the bracket was opened) fp8_quotient_exact decides.
//
// ---- Proof
// Notation: t = x / s (real), RN the fp32 rounding, RN8 the saturating fp8 rounding above, which
// is monotone and odd in its argument apart from NaN; "midpoint" the real halfway point between
// two neighbouring fp8 values: RN8 changes value only at midpoints.
// (F1) Exact signs. fma(a, b, c) is the real a*b + c rounded once, so its sign is that of the real
//   value unless that value is non-zero and below the smallest subnormal 2^-149 in magnitude (it
//   would round to a signed zero). Every fma below has operands whose real result is an integer
//   multiple of some 2^-k with k <= 149 (the granularity of each term is stated where used), so a
//   non-zero result is at least 2^-149 in magnitude: the computed sign, and zero-ness, are exact.
// (F2) The bracket. Checked: s*lo <= 1 - 2^-23 and s*hi >= 1 + 2^-23. A wrong sign could only
//   come from s*lo within 2^-149 of 1 - 2^-23; there the exponents of s and lo sum to -1 or 0,
//   so s*lo is a multiple of 2^-48 (a subnormal s has quantum 2^-149 but then lo >= 2^126 has
//   2^103), 1 - 2^-23 one of 2^-24, and (F1) applies; likewise for hi and for the power-of-two
//   test s*r0 == 1. An infinite lo fails its check (s * inf = inf), a zero hi fails its; lo = 0
//   and hi = +inf bound 1/s trivially. So lo <= (1 - 2^-23) / s and hi >= (1 + 2^-23) / s, or
//   they are the trivial bounds.
// (A) Fast filter: RN8(qlo) == RN8(qhi) == c implies RN8(t) == c. Let x > 0 finite (x < 0 is the
//   mirror image, since RN and RN8 are odd; x = 0 gives qlo = qhi = +-0 = t unless hi = inf,
//   where 0 * inf = NaN differs from 0 and the exact path runs; x = NaN gives NaN, 0x7f, for both
//   and for t; x = +-inf gives +-inf for both, or NaN against inf when lo = 0, as t saturates).
//   If x*lo is at least 2^-126 (normal), qlo <= x*lo (1 + 2^-24) <= t (1 - 2^-23)(1 + 2^-24) < t;
//   likewise x*hi normal or overflowing gives qhi > t. So when both products are normal (or
//   overflow: then t > FLT_MAX and everything saturates alike), qlo < t < qhi and monotone RN8
//   is constant on [qlo, qhi]. When x*lo or x*hi is below 2^-126, the quotient t or the
//   corresponding q (or both) lies below 2^-125, where RN8 is 0 (the smallest fp8 midpoint is
//   2^-17), and c is 0 for the same reason. With lo = hi = r0 = 1/s exactly (s = 2^k), x * r0 is
//   t itself unless it under- or overflows, where both round to 0 or saturate.
// (B) fp8_quotient_exact returns RN8(t) for every x and every finite s > 0. NaN, infinities and
//   zeros are settled first. Otherwise s = sn * 2^E exactly with sn in [1, 2) (a subnormal s is
//   first multiplied by 2^64, exactly), and xn = |x| * 2^-E (two exact power-of-two multiplies,
//   or an overflow to +inf, when t > 2^127 saturates, or a result below 2^-100 after which t <
//   2^-100 rounds to 0 however xn was rounded). t = xn / sn with xn normal; r = RN(1 / sn) (an
//   IEEE division, error under 2^-24), lo and hi as above satisfy (F2) with margin, and qlo <=
//   t <= qhi as in (A) (all normal). If RN8(qlo) == RN8(qhi), done. Otherwise some midpoint m
//   lies in [qlo, qhi], a relative width under 2^-19, while neighbouring midpoints are more than
//   2^-5 apart relatively (one fp8 step: 2^-p of its binade, or the fixed subnormal step, which
//   is 2^-p of the smallest normal value): m is unique, and the two codes are its two
//   neighbours (432 = (416 + 448) / 2 and 53248 are midpoints like the others: above them
//   everything saturates to the same code), so m = (v(clo) + v(chi)) / 2 exactly (fp8 values
//   have at most 4 significant bits). The sign of the real xn - m * sn is the sign of t - m;
//   fma(-m, sn, xn) gives it exactly by (F1) (xn >= 2^-100 is a multiple of 2^-123, m * sn of
//   2^-40). Positive: t > m, the upper code; negative: the lower;
//   zero: t is the tie m, and round-to-even takes the code with a 0 low bit (adjacent codes of
//   one sign differ by one, and an fp8 code's low bit is its significand's).
// Hence fp8_quotients returns RN8(t) for every input. What it costs per element: 2 FMUL, one
// half of two packed conversions (F2FP) and a compare, plus the rare exact path.
#pragma once

#include <cstdint>
#include <cstring>

#include "host_device.h"
#include "rope_kv.h"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif

#if defined(__CUDACC__)
#define RKV_NOINLINE __noinline__
#else
#define RKV_NOINLINE
#endif

namespace rkv {

// The host's RN8 and fp8 decoding (reference/host_numeric.cpp): only host callers (tests) use the
// host side of this header, and they link rkv_reference.
std::uint8_t float_to_fp8_e4m3_satfinite(float x);
std::uint8_t float_to_fp8_e5m2_satfinite(float x);
float fp8_e4m3_to_float(std::uint8_t bits);
float fp8_e5m2_to_float(std::uint8_t bits);

namespace detail {

RKV_HOST_DEVICE inline std::uint32_t f32_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

RKV_HOST_DEVICE inline float f32_of(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

// fp32 operations spelled out so that neither side contracts or reassociates them.
RKV_HOST_DEVICE inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;  // the build has -ffp-contract=off
#endif
}
RKV_HOST_DEVICE inline float fma_rn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return __builtin_fmaf(a, b, c);
#endif
}

template <CacheDType C>
struct Fp8Traits;
template <>
struct Fp8Traits<CacheDType::fp8_e4m3> {
  static constexpr std::uint8_t max_code = 0x7e;  // 448
};
template <>
struct Fp8Traits<CacheDType::fp8_e5m2> {
  static constexpr std::uint8_t max_code = 0x7b;  // 57344
};

// RN8 of a float: round to nearest even, saturating, NaN -> 0x7f.
template <CacheDType C>
RKV_HOST_DEVICE inline std::uint8_t fp8_rn(float x) {
#if defined(__CUDA_ARCH__)
  constexpr __nv_fp8_interpretation_t kind = C == CacheDType::fp8_e4m3 ? __NV_E4M3 : __NV_E5M2;
  return static_cast<std::uint8_t>(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, kind));
#else
  return C == CacheDType::fp8_e4m3 ? float_to_fp8_e4m3_satfinite(x)
                                   : float_to_fp8_e5m2_satfinite(x);
#endif
}

// RN8 of two floats, a in the low byte.
template <CacheDType C>
RKV_HOST_DEVICE inline std::uint16_t fp8x2_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  constexpr __nv_fp8_interpretation_t kind = C == CacheDType::fp8_e4m3 ? __NV_E4M3 : __NV_E5M2;
  return static_cast<std::uint16_t>(
      __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, kind));
#else
  return static_cast<std::uint16_t>(fp8_rn<C>(a) | fp8_rn<C>(b) << 8);
#endif
}

// The value of a finite fp8 code.
template <CacheDType C>
RKV_HOST_DEVICE inline float fp8_value(std::uint8_t code) {
#if defined(__CUDA_ARCH__)
  constexpr __nv_fp8_interpretation_t kind = C == CacheDType::fp8_e4m3 ? __NV_E4M3 : __NV_E5M2;
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(code, kind)));
#else
  return C == CacheDType::fp8_e4m3 ? fp8_e4m3_to_float(code) : fp8_e5m2_to_float(code);
#endif
}

// Any estimate of 1 / s: the proof needs none of its accuracy (a poor one only sends more
// elements down the exact path). The device's approximate reciprocal is one MUFU instruction.
RKV_HOST_DEVICE inline float reciprocal_estimate(float s) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(s));
  return r;
#else
  return 1.0f / s;
#endif
}

// The per-scale half: the verified bracket [lo, hi] around 1 / s (see (F2) above).
struct Fp8Divider {
  float scale, lo, hi;

  RKV_HOST_DEVICE explicit Fp8Divider(float s) : Fp8Divider(s, reciprocal_estimate(s)) {}
  // From any estimate r0 (tests pass poor ones on purpose).
  RKV_HOST_DEVICE Fp8Divider(float s, float r0) : scale(s) {
    lo = mul_rn(r0, 1.0f - 0x1p-21f);
    hi = mul_rn(r0, 1.0f + 0x1p-21f);
    if (!(fma_rn(s, lo, -(1.0f - 0x1p-23f)) <= 0.0f)) lo = 0.0f;
    if (!(fma_rn(s, hi, -(1.0f + 0x1p-23f)) >= 0.0f)) hi = f32_of(0x7f800000u);
    if (fma_rn(s, r0, -1.0f) == 0.0f) lo = hi = r0;  // s = 2^k: x * r0 is exact
  }
};

// |x| * 2^k for any k in [-300, 300], as two exact power-of-two multiplies (each factor is a
// normal float); exact unless the result overflows or falls below 2^-126.
RKV_HOST_DEVICE inline float scale_by_pow2(float x, int k) {
  const int a = k / 2, b = k - a;
  return mul_rn(mul_rn(x, f32_of(static_cast<std::uint32_t>(127 + a) << 23)),
                f32_of(static_cast<std::uint32_t>(127 + b) << 23));
}

// RN8(x / s) for any x and any finite s > 0, proof (B) above.
template <CacheDType C>
RKV_HOST_DEVICE inline std::uint8_t fp8_quotient_exact(float x, float s) {
  constexpr std::uint8_t kMax = Fp8Traits<C>::max_code;
  const std::uint32_t xb = f32_bits(x);
  const std::uint8_t sign = static_cast<std::uint8_t>((xb >> 24) & 0x80u);
  const std::uint32_t ax = xb & 0x7fffffffu;
  if (ax > 0x7f800000u) return 0x7f;          // NaN
  if (ax == 0x7f800000u) return sign | kMax;  // +-inf saturates
  if (ax == 0) return sign;                   // +-0
  // s = sn * 2^e exactly, sn in [1, 2).
  int e = 0;
  std::uint32_t sb = f32_bits(s);
  if (sb < 0x00800000u) {  // subnormal: scale into the normal range first
    sb = f32_bits(mul_rn(s, 0x1p64f));
    e = -64;
  }
  e += static_cast<int>(sb >> 23) - 127;
  const float sn = f32_of((sb & 0x007fffffu) | 0x3f800000u);
  const float xn = scale_by_pow2(f32_of(ax), -e);  // t = xn / sn
  if (xn == f32_of(0x7f800000u)) return sign | kMax;
  if (xn < 0x1p-100f) return sign;
  const float r = 1.0f / sn;  // IEEE division, correctly rounded on both sides
  const float qlo = mul_rn(xn, mul_rn(r, 1.0f - 0x1p-21f));
  const float qhi = mul_rn(xn, mul_rn(r, 1.0f + 0x1p-21f));
  const std::uint8_t clo = fp8_rn<C>(qlo), chi = fp8_rn<C>(qhi);
  if (clo == chi) return sign | clo;
  const float m = mul_rn(fp8_value<C>(clo) + fp8_value<C>(chi), 0.5f);
  const float res = fma_rn(-m, sn, xn);
  const std::uint8_t code = res > 0.0f ? chi : res < 0.0f ? clo : ((clo & 1u) != 0 ? chi : clo);
  return sign | code;
}

// N values by value (so that the exact path's call passes them in registers) and N codes.
template <int N>
struct Fp8ChunkIn {
  float x[N];
};
template <int N>
struct Fp8ChunkOut {
  std::uint8_t code[N];
};

// The exact path for a whole chunk: one out-of-line call per chunk that the filter could not
// settle (every element redone; the call is rare, its size is what matters).
// `n` is N, passed at run time so that the compiler keeps one copy of the loop body (a pragma
// would reach the host compiler too).
template <CacheDType C, int N>
RKV_HOST_DEVICE RKV_NOINLINE Fp8ChunkOut<N> fp8_quotients_exact(const Fp8ChunkIn<N> in, float s,
                                                                int n) {
  Fp8ChunkOut<N> out;
  for (int j = 0; j < n; ++j)
    out.code[j] = fp8_quotient_exact<C>(in.x[j], s);
  return out;
}

// RN8(x[j] / s) for a chunk of N (even) values: the fast filter, and the exact path for a chunk
// holding an element it cannot settle.
template <CacheDType C, int N>
RKV_HOST_DEVICE inline Fp8ChunkOut<N> fp8_quotients(const Fp8ChunkIn<N>& in, const Fp8Divider& d) {
  static_assert(N % 2 == 0, "chunks hold pairs");
  Fp8ChunkOut<N> out;
  std::uint32_t differ = 0;
  for (int j = 0; j < N / 2; ++j) {  // unrolled: N is a constant
    const float a = in.x[2 * j], b = in.x[2 * j + 1];
    const std::uint16_t lo = fp8x2_rn<C>(mul_rn(a, d.lo), mul_rn(b, d.lo));
    const std::uint16_t hi = fp8x2_rn<C>(mul_rn(a, d.hi), mul_rn(b, d.hi));
    differ |= static_cast<std::uint32_t>(lo ^ hi);
    out.code[2 * j] = static_cast<std::uint8_t>(lo);
    out.code[2 * j + 1] = static_cast<std::uint8_t>(lo >> 8);
  }
  if (differ != 0) out = fp8_quotients_exact<C, N>(in, d.scale, N);
  return out;
}

}  // namespace detail
}  // namespace rkv
