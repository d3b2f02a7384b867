// Device memory for one case: the read-only inputs once, and two copies of everything the
// operation writes (one for the fused kernel, one for the unfused pair), filled identically.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/workload.h"

namespace rkv {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::int64_t bytes, const char* name);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  std::int64_t bytes() const { return bytes_; }
  void upload(const void* src, std::int64_t bytes);
  void download(void* dst, std::int64_t bytes) const;
  std::vector<std::uint8_t> to_host() const;

 private:
  void* ptr_ = nullptr;
  std::int64_t bytes_ = 0;
  std::int64_t capacity_ = 0;  // the pooled block's size
};

// Everything the operation may write, for one copy.
struct OutputBuffers {
  DeviceBuffer qkv, query_out, k_cache, v_cache;  // v_cache empty when the cache is one tensor
  void* v_cache_ptr() const { return v_cache.get() != nullptr ? v_cache.get() : k_cache.get(); }
};

struct DeviceCase {
  TensorPlan plan;
  HostInputs host;
  DeviceBuffer positions, slots, k_scale, v_scale, cos_sin;
  OutputBuffers fused, pair;

  // Allocates, fills q/k/v from the seed, pre-fills caches and query_out with the sentinel
  // pattern, uploads the small inputs and makes `pair` a byte copy of `fused`.
  explicit DeviceCase(const CaseSpec& spec);

  RopeKvArgs args(const OutputBuffers& out) const;
  RopeKvArgs fused_args() const { return args(fused); }
  RopeKvArgs pair_args() const { return args(pair); }
};

// Device fills matching fill_values_host / fill_sentinel_host byte for byte.
void fill_values_device(void* dst, DType dtype, std::int64_t n, std::uint64_t seed,
                        std::uint64_t stream);
void fill_sentinel_device(void* dst, std::int64_t bytes, std::uint64_t seed);

}  // namespace rkv
