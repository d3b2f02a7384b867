// The inputs of `values=specials`: every kSpecialEvery-th element of qkv (from element 0) holds
// one of the values below, in turn, as raw bits of the q/k/v dtype; the rest keep their seeded
// values. One table for the device planting and the host tests, so both name the same bits.
#pragma once

#include <cstdint>

#include "host_device.h"

namespace rkv {

inline constexpr std::int64_t kSpecialEvery = 5;
inline constexpr int kSpecialCount = 10;

// Special k (0 <= k < kSpecialCount) for an element of `elem_bytes` (2: bf16 or fp16 as told by
// `fp16`; 4: fp32): quiet NaN, a NaN with payload and the sign set, +Inf, -Inf, +0, -0, the
// smallest subnormal, the largest negative subnormal, the largest finite and its negative (fp8
// saturates them to its own largest finite).
RKV_HOST_DEVICE inline std::uint32_t special_bits(int elem_bytes, bool fp16, int k) {
  constexpr std::uint32_t f32[kSpecialCount] = {0x7fc00000u, 0xffc01234u, 0x7f800000u, 0xff800000u,
                                                0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                                0x7f7fffffu, 0xff7fffffu};
  constexpr std::uint32_t bf16[kSpecialCount] = {0x7fc0u, 0xffc1u, 0x7f80u, 0xff80u, 0x0000u,
                                                 0x8000u, 0x0001u, 0x807fu, 0x7f7fu, 0xff7fu};
  constexpr std::uint32_t f16[kSpecialCount] = {0x7e00u, 0xfe01u, 0x7c00u, 0xfc00u, 0x0000u,
                                                0x8000u, 0x0001u, 0x83ffu, 0x7bffu, 0xfbffu};
  if (elem_bytes == 4) return f32[k];
  return fp16 ? f16[k] : bf16[k];
}

}  // namespace rkv
