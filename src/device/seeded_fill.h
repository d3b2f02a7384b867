// Seeded, index-addressed input values: element i of a tensor depends only on (seed, stream, i),
// so the host and the device produce the same bytes and any case is reproducible from its seed
// without host RNG state or host-to-device copies of large tensors.
#pragma once

#include <cstdint>

#include "host_device.h"
#include "rope_kv.h"

namespace rkv {

RKV_HOST_DEVICE inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

RKV_HOST_DEVICE inline std::uint64_t seeded_bits(std::uint64_t seed, std::uint64_t stream,
                                                 std::uint64_t i) {
  return splitmix64(splitmix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + i);
}

// A q/k/v value in [-2, 2), with 1 element in 64 scaled by 300 so fp8 caches saturate sometimes.
// Computed with exact operations only (an integer to float conversion and power-of-two scales),
// so host and device agree bit for bit.
RKV_HOST_DEVICE inline float seeded_value(std::uint64_t seed, std::uint64_t stream,
                                          std::uint64_t i) {
  const std::uint64_t b = seeded_bits(seed, stream, i);
  const float unit = static_cast<float>(static_cast<std::int32_t>(b >> 40) - (1 << 23)) *
                     (1.0f / 4194304.0f);  // 24 random bits -> [-2, 2)
  return (b & 63u) == 0 ? unit * 300.0f : unit;
}

// The sentinel byte the caches and query_out are pre-filled with, varying with the byte index so
// a misplaced copy of sentinel bytes is caught too.
RKV_HOST_DEVICE inline std::uint8_t sentinel_byte(std::uint64_t seed, std::uint64_t i) {
  return static_cast<std::uint8_t>(seeded_bits(seed, 0x5E47, i >> 3) >> ((i & 7u) * 8));
}

enum class FillStream : std::uint64_t { qkv = 1, sentinel = 2 };

// Host fills (the reference for the device ones in device_fill.cu).
void fill_values_host(void* dst, DType dtype, std::int64_t n, std::uint64_t seed,
                      std::uint64_t stream);
void fill_sentinel_host(void* dst, std::int64_t bytes, std::uint64_t seed);

}  // namespace rkv
