// x / s correctly rounded to fp32, bit for bit the IEEE division (__fdiv_rn on the device, the
// host's float division), for every pair of floats: the first of the fp8 cache store's two
// roundings (docs/design.md: fp8_satfinite(float(x) / scale), as vLLM's cache kernels do).
// Why not the division: div.rn.f32 has a data-dependent slow path (it made fp8 launches 2-4x
// slower once the in-place q/k had drifted). Why not v4/v5's RN32(x * RN64(1 / s)): exact, but
// 113 F2F + 51 DMUL in the fused kernel. Here: one FMUL and four FFMAs per element, all fp32.
// The same code runs on the host (tests/fp32_quotient_test.cpp compares it with the host's
// division exhaustively) and on the device (both kernels; tests/gpu_quotient_test.cu compares
// it with __fdiv_rn).
//
// ---- Method
// Per scale (ScaleDivider, once per chunk): r = RN(1 / s), correctly rounded (__frcp_rn; the
// host's division), and `fast`: s is a float in [2^-32, 2^33) (so positive and normal).
// Per element, when `fast` and x is +-0 or 2^-90 <= |x| < 2^91 (fast_quotient_input):
//   q0 = RN(x r);  q1 = RN(q0 - RN(q0 s - x) r);  q = RN(q1 - (q1 s - x) r)
// each RN(a b + c) one fma. Otherwise the whole chunk is redone by an out-of-line call of the
// division itself, exact by definition.
//
// ---- Proof that q = RN(x / s) on the fast path
// t = x / s (real), RN round-to-nearest-even in fp32, u = 2^-24, quantum(f) = a float's last-bit
// value. s = S 2^b with S an integer in [2^23, 2^24). E(v) = floor(log2 |v|).
// (R) Ranges. 1/s lies in (2^-33, 2^32], so r is normal and |s r - 1| <= s * ulp(1/s) / 2 <=
//   S 2^-48 < u (r = 1/s exactly when S = 2^23). |t| lies in (2^-123, 2^123): t and every value
//   below within a factor 1 +- 2^-20 of it are normal and far from overflow, so rounding them
//   errs by at most u relatively. Every residual q s - x below (q such a value) is a multiple of
//   quantum(q) quantum(s) >= 2^(E(x) - 48) >= 2^-138 (x itself is a multiple of the coarser
//   2^(E(x) - 23)): exactly representable if below 2^-126 (subnormals are the multiples of
//   2^-149 there), and otherwise normal, so its rounding also errs by at most u relatively.
// (Q0) q0 = t (1 + d)(1 + d') with |d|, |d'| <= u: |q0 - t| <= 2.0001 u |t| (up to ~2 ulps; not
//   necessarily faithful, hence two corrections).
// (Q1) q1 is faithful: e0 = RN(q0 s - x) = s (q0 - t)(1 + d2), |d2| <= u by (R), so
//   q0 - e0 r = t - (q0 - t)((1 + d2) s r - 1) = t + theta with |theta| <= 2.0001 u |t| * 2.0001 u
//   < 2^-20 quantum(t). The fma rounds that once; a value so close to t rounds to one of the two
//   floats bracketing t (each float's half-gap to the next midpoint is >= quantum(t) / 4).
// (E) The second residual is exact: q1 faithful gives |q1 - t| < quantum(q1) =: 2^c (below a
//   power-of-two q1 the gap is only 2^(c-1)). So q1 s - x = s (q1 - t) is a multiple of 2^(b+c)
//   (x is: E(x) - 23 >= b + c) of magnitude below S 2^(b+c), i.e. an integer below 2^24 times
//   2^(b+c) >= 2^-138: a float, and fma(q1, s, -x) returns it exactly.
// (M) Markstein's theorem (P. Markstein, IBM J. Res. Dev. 34(1), 1990; also in Muller et al.,
//   Handbook of Floating-Point Arithmetic, FMA-based division): if r = RN(1/s), q1 is faithful
//   and the remainder x - q1 s is exact, then RN(q1 + (x - q1 s) r) = RN(x / s), barring
//   underflow and overflow, which (R) excludes. Its argument for these conditions:
//   q1 - e1 r = t + eta with eta = (q1 - t)(1 - s r), |eta| <= |q1 - t| S 2^-48. RN(t + eta) and
//   RN(t) differ only if a midpoint m (halfway between neighbouring floats, last bit 2^k, the
//   floats m +- 2^k) lies between t and t + eta. m != t: m has an odd significand of 25 bits, so
//   m s has more than 24 and is not the float x. So x - m s is a non-zero multiple of 2^(k+b):
//   |t - m| = D >= 2^k / S. Only the midpoint between the floats bracketing t can be that close,
//   so q1 (one of them) is 2^k from m and |q1 - t| <= 2^k + D. Reaching m needs |eta| >= D, i.e.
//   (2^k + D) S 2^-48 >= D, i.e. 2^k S 2^-48 >= D (1 - S 2^-48) >= 2^k (1 - S 2^-48) / S, i.e.
//   S (S + 1) >= 2^48: false for S < 2^24. So the final fma returns RN(t).
//   (One correction from q0 was never wrong in the tests, even on the hardest near-midpoint
//   quotients, but q0 need not be faithful, so only the two-correction form has this proof.)
// (Z) Signed zeros: x = +-0 gives q0 = +-0 and the residual RN(+-0 s - +-0) = +0, then
//   RN(+-0 - (+0) r) = +-0, the division's sign. That is why the residual is q s - x and gets
//   subtracted: x - q s added would give (+0) + (-0) = +0 for x = -0.
// (S) Everything else takes the division: NaN and infinities (inf - inf residuals), |x| below
//   2^-90 (t may be subnormal: no relative error bound, inexact residuals) or from 2^91 (t and
//   x r may overflow at small scales), and scales outside [2^-32, 2^33) (r subnormal or
//   infinite, quotients outside (R)), zero, negative, subnormal, infinite or NaN. Real keys and
//   values never leave the fast ranges; the chunk call is out of line so it costs nothing there.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "host_device.h"

#if defined(__CUDACC__)
#define RKV_NOINLINE __noinline__
#else
#define RKV_NOINLINE
#endif

namespace rkv::detail {

RKV_HOST_DEVICE inline std::uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

// fp32 operations spelled out so that neither compiler contracts or reassociates them (the host
// build also has -ffp-contract=off).
RKV_HOST_DEVICE inline float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
RKV_HOST_DEVICE inline float fma_rn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
// The IEEE division itself: the definition, and the slow path.
RKV_HOST_DEVICE inline float div_rn(float x, float s) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(x, s);
#else
  return x / s;
#endif
}

// Bit-pattern bounds of the fast ranges (proof (R), (S)), compared as unsigned integers.
constexpr std::uint32_t kFastScaleLo = 0x2f800000u;  // 2^-32
constexpr std::uint32_t kFastScaleHi = 0x50000000u;  // 2^33 (excluded)
constexpr std::uint32_t kFastInputLo = 0x12800000u;  // 2^-90
constexpr std::uint32_t kFastInputHi = 0x6d000000u;  // 2^91 (excluded)

// RN(1 / s), correctly rounded on both sides.
RKV_HOST_DEVICE inline float rcp_rn(float s) {
#if defined(__CUDA_ARCH__)
  return __frcp_rn(s);
#else
  return 1.0f / s;
#endif
}

// The per-scale half: the correctly rounded reciprocal and whether the fast path may use it.
struct ScaleDivider {
  float scale, recip;
  bool fast;
  RKV_HOST_DEVICE explicit ScaleDivider(float s)
      : scale(s),
        recip(rcp_rn(s)),
        fast(float_bits(s) - kFastScaleLo < kFastScaleHi - kFastScaleLo) {}
};

// x = +-0 or 2^-90 <= |x| < 2^91: two integer compares (a sign-cleared NaN or inf is above).
RKV_HOST_DEVICE inline bool fast_quotient_input(float x) {
  const std::uint32_t ax = float_bits(x) & 0x7fffffffu;
  return ax - kFastInputLo < kFastInputHi - kFastInputLo || ax == 0;
}

// RN(x / s) when d.fast and fast_quotient_input(x) (proof above); meaningless otherwise.
RKV_HOST_DEVICE inline float fast_quotient(float x, const ScaleDivider& d) {
  const float q0 = mul_rn(x, d.recip);
  const float q1 = fma_rn(-fma_rn(q0, d.scale, -x), d.recip, q0);  // faithful (Q1)
  return fma_rn(-fma_rn(q1, d.scale, -x), d.recip, q1);            // exact residual (E), (M)
}

template <int N>
struct FloatChunk {
  float v[N];
};

// The slow path for a whole chunk, out of line (rare: see (S)). `n` is N, passed at run time so
// that the compiler keeps one copy of the division's code rather than N.
template <int N>
RKV_HOST_DEVICE RKV_NOINLINE FloatChunk<N> divide_chunk(const FloatChunk<N> x, float s, int n) {
  FloatChunk<N> q;
  for (int j = 0; j < n; ++j)
    q.v[j] = div_rn(x.v[j], s);
  return q;
}

// RN(x.v[j] / d.scale) for every j: the fast path, or the division for a chunk it cannot take.
// The test comes first so that on the fast path each x dies as its quotient is made (fewer
// live registers than computing all quotients and keeping the inputs for a possible redo).
template <int N>
RKV_HOST_DEVICE inline FloatChunk<N> quotients(const FloatChunk<N>& x, const ScaleDivider& d) {
  bool fast = d.fast;
  for (int j = 0; j < N; ++j)  // unrolled: N is a constant
    fast &= fast_quotient_input(x.v[j]);
  if (!fast) return divide_chunk<N>(x, d.scale, N);
  FloatChunk<N> q;
  for (int j = 0; j < N; ++j)
    q.v[j] = fast_quotient(x.v[j], d);
  return q;
}

}  // namespace rkv::detail
