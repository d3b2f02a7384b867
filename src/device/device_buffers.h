// Device memory for one case: the read-only inputs once, and two copies of everything the
// operation writes (slots A and B), filled identically. Which variant writes which slot is a
// SlotAssignment: validation gives the fused kernel A and the pair B; `bench` swaps them on odd
// passes, so the slots are named by place, never by the variant that happens to use them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "plan/workload.h"

namespace rkv {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // `offset` bytes (0..15) are skipped at the start of the allocation, so get() is misaligned by
  // exactly that much (the misalign axis); get() and bytes() always describe the usable part.
  DeviceBuffer(std::int64_t bytes, const char* name, int offset = 0);
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
  void* base_ = nullptr;  // the pooled block (what goes back to the pool)
  void* ptr_ = nullptr;   // base_ + offset
  std::int64_t bytes_ = 0;
  std::int64_t capacity_ = 0;  // the pooled block's size
};

// Everything the operation may write, for one copy.
struct OutputBuffers {
  DeviceBuffer qkv, query_out, k_cache, v_cache;  // v_cache empty when the cache is one tensor
  void* v_cache_ptr() const { return v_cache.get() != nullptr ? v_cache.get() : k_cache.get(); }
};

enum class OutputSlot { a, b };
const char* to_string(OutputSlot s);  // "a", "b"

// Which output slot the fused kernel writes and which the unfused pair (and its two kernels).
struct SlotAssignment {
  OutputSlot fused = OutputSlot::a;
  OutputSlot pair = OutputSlot::b;
  static SlotAssignment straight() { return {OutputSlot::a, OutputSlot::b}; }
  static SlotAssignment swapped() { return {OutputSlot::b, OutputSlot::a}; }
};

struct DeviceCase {
  CaseSpec spec;
  TensorPlan plan;
  HostInputs host;
  DeviceBuffer positions, slots, k_scale, v_scale, cos_sin;
  OutputBuffers slot_a, slot_b;
  // The q/k/v bytes both slots started with, kept apart: the producer modes' producer copies them
  // into a slot before every launch, and the other modes restore a slot from them every so many
  // launches (timing/input_refresh.h), so in-place rotation never drifts the data far.
  // Empty until make_pristine_qkv().
  DeviceBuffer pristine_qkv;

  // Allocates, fills q/k/v from the seed, pre-fills caches and query_out with the sentinel
  // pattern, uploads the small inputs and makes slot B a byte copy of slot A.
  explicit DeviceCase(const CaseSpec& spec);

  // Fills pristine_qkv (same size and misalignment as a slot's qkv) with the bytes the slots
  // started with, regenerated from the seed: callable after kernels have rotated the slots.
  void make_pristine_qkv();

  // Queues on `stream` a copy of pristine_qkv over slot `s`'s qkv: the slot's q/k/v as they
  // started. Throws std::logic_error before make_pristine_qkv().
  cudaError_t restore_qkv(OutputSlot s, cudaStream_t stream) const;

  OutputBuffers& outputs(OutputSlot s) { return s == OutputSlot::a ? slot_a : slot_b; }
  const OutputBuffers& outputs(OutputSlot s) const { return s == OutputSlot::a ? slot_a : slot_b; }
  RopeKvArgs args(OutputSlot s) const { return args(outputs(s)); }
  RopeKvArgs args(const OutputBuffers& out) const;
};

// Device fills matching fill_values_host / fill_sentinel_host byte for byte.
void fill_values_device(void* dst, DType dtype, std::int64_t n, std::uint64_t seed,
                        std::uint64_t stream);
void fill_sentinel_device(void* dst, std::int64_t bytes, std::uint64_t seed);
// Overwrites every kSpecialEvery-th of `n` elements with the specials of special_values.h.
void plant_specials_device(void* dst, DType dtype, std::int64_t n);

}  // namespace rkv
