// Workload: where every tensor of a case lives, and the small seeded inputs (positions, slots,
// scales, the cos/sin table) that are built on the host.
//
// q/k/v are views into one fused qkv tensor, as serving engines hand them over:
//   qkv: [T, Hq*Dq + Hkv*Dk + Hkv*Dv]   q at column 0, k after q, v after k
//   MLA: [T, Hq*192 + 512 + 64]         q, then kv_c (the "value", 512), then k_pe (64)
// The same TensorPlan binds host buffers (golden model) and device buffers (kernels).
#pragma once

#include <cstdint>
#include <vector>

#include "plan/cache_layout.h"
#include "plan/case_spec.h"
#include "rope_kv.h"
#include "rope_kv_check.h"

namespace rkv {

struct TensorPlan {
  CaseSpec spec;
  std::int64_t tokens = 0, cache_tokens = 0;  // T, Tc
  int num_q_heads = 0, num_kv_heads = 0;
  int q_head_size = 0, k_head_size = 0, v_head_size = 0;
  int rot_dim = 0, q_rot_offset = 0;
  std::size_t elem_bytes = 0, cache_elem_bytes = 0, cos_sin_elem_bytes = 0;

  std::int64_t row_elems = 0;  // qkv token stride
  std::int64_t q_col = 0, k_col = 0, v_col = 0;
  std::int64_t max_position = 0;

  // Cache: one or two allocations of cache_elems elements; the K and V views start at
  // k_offset / v_offset elements into their allocation (the same one when packed or MLA).
  std::int64_t num_blocks = 0;
  int block_size = 0;
  int cache_tensors = 2;
  std::int64_t cache_elems = 0;
  std::int64_t k_offset = 0, v_offset = 0;
  std::int64_t block_stride = 0, slot_stride = 0, head_stride = 0;

  bool has_slots() const { return spec.slots != SlotMode::rope_only; }
  bool separate_query_out() const { return spec.query_out == QueryOut::separate; }
  std::int64_t qkv_bytes() const {
    return tokens * row_elems * static_cast<std::int64_t>(elem_bytes);
  }
  std::int64_t query_out_bytes() const {
    return separate_query_out()
               ? tokens * num_q_heads * q_head_size * static_cast<std::int64_t>(elem_bytes)
               : 0;
  }
  std::int64_t cache_bytes() const {
    return cache_elems * static_cast<std::int64_t>(cache_elem_bytes);
  }
};

TensorPlan make_tensor_plan(const CaseSpec& spec);

// Small inputs, made on the host from the case's seed (std::mt19937_64, so every platform agrees).
struct HostInputs {
  std::vector<std::int64_t> positions;  // [T]
  std::vector<std::int64_t> slots;      // [Tc]; empty when RoPE-only
  std::vector<float> k_scale, v_scale;  // [1] or [Hkv]; empty for an auto cache
  std::vector<std::uint8_t> cos_sin;    // [max_position, R] in fp32 or the q/k/v dtype
};

HostInputs make_host_inputs(const TensorPlan& plan);

// The base pointers of one copy of a case's buffers (host or device memory alike).
struct BufferPointers {
  void* qkv = nullptr;
  void* query_out = nullptr;
  void* k_cache = nullptr;
  void* v_cache = nullptr;  // == k_cache when the cache is one tensor
  const std::int64_t* positions = nullptr;
  const std::int64_t* slots = nullptr;
  const float* k_scale = nullptr;
  const float* v_scale = nullptr;
  const void* cos_sin = nullptr;
};

RopeKvArgs bind_args(const TensorPlan& plan, const BufferPointers& p);

// The small inputs' pointers of host memory (positions, slots, scales, cos/sin); the caller adds
// the qkv, query_out and cache pointers.
BufferPointers input_pointers(const HostInputs& in);

HostSideInputs host_side(const HostInputs& in);

// The fewest bytes the operation must move through memory (docs/methodology.md, "Floors"): q and k
// read and written (k not written when only cached), v read, positions, slot ids, the cos/sin rows
// of the distinct positions, the cache entries written in the cache dtype.
std::int64_t min_bytes_moved(const TensorPlan& plan, const HostInputs& in);

}  // namespace rkv
