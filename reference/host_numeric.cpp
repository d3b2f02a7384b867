#include "host_numeric.h"

#include <cstring>

namespace rkv {
namespace {

std::uint32_t float_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float bits_float(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

constexpr std::uint32_t kAbsMask = 0x7fffffffu;
constexpr std::uint32_t kF32Inf = 0x7f800000u;
// The device's arithmetic never returns a NaN payload: every NaN result is this one.
constexpr std::uint32_t kF32CanonicalNaN = 0x7fffffffu;

bool is_nan_bits(std::uint32_t u) {
  return (u & kAbsMask) > kF32Inf;
}

// Shifts `mant` right by `shift` (1..31) and rounds to nearest, ties to even.
std::uint32_t shift_rne(std::uint32_t mant, int shift) {
  const std::uint32_t q = mant >> shift;
  const std::uint32_t rem = mant & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  return q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
}

// A small float format with `mant_bits` stored mantissa bits and exponent bias `bias`, saturating
// to the code `max_code` (the largest finite magnitude). Normal results are the exponent/mantissa
// concatenation rounded as one integer, so a mantissa carry bumps the exponent as it should.
struct Fp8Format {
  int mant_bits;
  int bias;
  std::uint8_t max_code;
  std::uint32_t max_float_bits;  // the float whose value is max_code's
};

constexpr Fp8Format kE4m3{3, 7, 0x7e, 0x43e00000u};   // 448   = 1.75 * 2^8
constexpr Fp8Format kE5m2{2, 15, 0x7b, 0x47600000u};  // 57344 = 1.75 * 2^15

std::uint8_t float_to_fp8_satfinite(float x, const Fp8Format& f) {
  const std::uint32_t u = float_bits(x);
  // CUDA's conversion first replaces any NaN by the positive quiet NaN 0x7fffffff, so the sign is
  // dropped and both formats give 0x7f (e4m3's only NaN; e5m2's NaN with all mantissa bits set).
  if (is_nan_bits(u)) return 0x7f;
  const std::uint8_t sign = static_cast<std::uint8_t>((u >> 24) & 0x80u);
  const std::uint32_t a = u & kAbsMask;
  // satfinite: everything at or past the largest finite value, infinity included, clamps to it.
  if (a >= f.max_float_bits) return sign | f.max_code;
  const int exp = static_cast<int>(a >> 23) - 127 + f.bias;  // target biased exponent
  const int drop = 23 - f.mant_bits;
  if (exp >= 1) {
    const std::uint32_t code = static_cast<std::uint32_t>(exp) << 23 | (a & 0x7fffffu);
    // Rounding the fields as one integer lets a mantissa overflow carry into the exponent; the
    // result cannot pass max_code because `a` is below max_float_bits, whose code rounds to itself.
    return sign | static_cast<std::uint8_t>(shift_rne(code, drop));
  }
  // Subnormal target: count units of the smallest subnormal, 2^(1 - bias - mant_bits).
  const std::uint32_t mant24 = (a & 0x7fffffu) | 0x800000u;
  const int shift = drop + 1 - exp;  // > drop, since exp <= 0
  if (shift > 24) return sign;       // below half the smallest subnormal (float subnormals too)
  return sign | static_cast<std::uint8_t>(shift_rne(mant24, shift));
}

float fp8_to_float(std::uint8_t b, const Fp8Format& f) {
  const int exp_bits = 7 - f.mant_bits;
  const std::uint32_t sign = static_cast<std::uint32_t>(b & 0x80u) << 24;
  const std::uint32_t e = (b >> f.mant_bits) & ((1u << exp_bits) - 1u);
  const std::uint32_t m = b & ((1u << f.mant_bits) - 1u);
  const bool e4m3 = f.mant_bits == 3;
  const std::uint32_t e_max = (1u << exp_bits) - 1u;
  const std::uint32_t m_max = (1u << f.mant_bits) - 1u;
  if (e4m3 && e == e_max && m == m_max) return bits_float(kF32CanonicalNaN);  // S.1111.111 only
  if (!e4m3 && e == e_max) return m ? bits_float(kF32CanonicalNaN) : bits_float(sign | kF32Inf);
  if (e == 0) {  // subnormal: m units of 2^(1 - bias - mant_bits), exact in float
    const float unit = bits_float(static_cast<std::uint32_t>(127 + 1 - f.bias - f.mant_bits) << 23);
    const float mag = static_cast<float>(m) * unit;
    return sign ? -mag : mag;
  }
  return bits_float(sign | (e - f.bias + 127) << 23 | m << (23 - f.mant_bits));
}

}  // namespace

float bf16_to_float(std::uint16_t bits) {
  return bits_float(static_cast<std::uint32_t>(bits) << 16);
}

std::uint16_t float_to_bf16(float x) {
  const std::uint32_t u = float_bits(x);
  if (is_nan_bits(u)) return 0x7fff;
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; a carry out of the mantissa
  // moves to the next binade, and past the largest finite value to infinity, as it should.
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float fp16_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t e = (bits >> 10) & 0x1fu;
  const std::uint32_t m = bits & 0x3ffu;
  if (e == 0x1f) return m ? bits_float(kF32CanonicalNaN) : bits_float(sign | kF32Inf);
  if (e == 0) {  // subnormal: m * 2^-24, exact in float
    const float mag = static_cast<float>(m) * bits_float(0x33800000u);
    return sign ? -mag : mag;
  }
  return bits_float(sign | (e + 112u) << 23 | m << 13);
}

std::uint16_t float_to_fp16(float x) {
  const std::uint32_t u = float_bits(x);
  if (is_nan_bits(u)) return 0x7fff;
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const std::uint32_t a = u & kAbsMask;
  if (a >= 0x47800000u) return sign | 0x7c00u;  // >= 65536 (and inf): infinity
  if (a >= 0x38800000u) {                       // normal half: rebias, round the 13 dropped bits
    // A carry past 0x7bff gives 0x7c00, so 65520 and above round to infinity.
    return sign | static_cast<std::uint16_t>(shift_rne(a - 0x38000000u, 13));
  }
  // Subnormal half: units of 2^-24. exponent 102 (2^-25) and below is at most half a unit.
  const int e = static_cast<int>(a >> 23);
  const int shift = 126 - e;
  if (shift > 24) return sign;
  return sign | static_cast<std::uint16_t>(shift_rne((a & 0x7fffffu) | 0x800000u, shift));
}

std::uint8_t float_to_fp8_e4m3_satfinite(float x) {
  return float_to_fp8_satfinite(x, kE4m3);
}
std::uint8_t float_to_fp8_e5m2_satfinite(float x) {
  return float_to_fp8_satfinite(x, kE5m2);
}
float fp8_e4m3_to_float(std::uint8_t bits) {
  return fp8_to_float(bits, kE4m3);
}
float fp8_e5m2_to_float(std::uint8_t bits) {
  return fp8_to_float(bits, kE5m2);
}

float load_scalar(DType dtype, const void* base, std::int64_t i) {
  switch (dtype) {
    case DType::bf16:
      return bf16_to_float(static_cast<const std::uint16_t*>(base)[i]);
    case DType::fp16:
      return fp16_to_float(static_cast<const std::uint16_t*>(base)[i]);
    case DType::fp32:
      return static_cast<const float*>(base)[i];
  }
  return 0.0f;
}

void store_scalar(DType dtype, void* base, std::int64_t i, float x) {
  switch (dtype) {
    case DType::bf16:
      static_cast<std::uint16_t*>(base)[i] = float_to_bf16(x);
      return;
    case DType::fp16:
      static_cast<std::uint16_t*>(base)[i] = float_to_fp16(x);
      return;
    case DType::fp32: {
      // fp32 "rounding" is the identity except for NaN: the host's fma keeps payloads (and makes
      // 0xffc00000 from inf * 0), the device returns its canonical NaN, so store that.
      const std::uint32_t u = is_nan_bits(float_bits(x)) ? kF32CanonicalNaN : float_bits(x);
      static_cast<std::uint32_t*>(base)[i] = u;
      return;
    }
  }
}

}  // namespace rkv
