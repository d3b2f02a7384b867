// rope-kv: rotary position embedding on Q and K plus the paged KV-cache write, in one launch.
//
// This is the whole public API of the kernel library: plain structs of raw pointers, sizes and
// strides, and launchers that take a stream and return cudaError_t. It includes nothing but
// <cstdint> and the CUDA runtime API, so any project (a serving engine, a Python extension, this
// tool) can call it. The contract is docs/design.md, "The operation".
//
// All strides are in elements of the tensor's own dtype (scalar_t for q/k/v, cache_t for the
// cache); the innermost (dim) stride is always 1.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace rkv {

enum class DType : std::uint8_t { bf16, fp16, fp32 };
// `auto_` stores the q/k/v dtype's bits unchanged; the fp8 kinds quantize with a scale.
enum class CacheDType : std::uint8_t { auto_, fp8_e4m3, fp8_e5m2 };
// neox pairs (v[i], v[i + R/2]); gptj pairs the interleaved (v[2i], v[2i + 1]).
enum class RopeStyle : std::uint8_t { neox, gptj };

// Bytes per element of a q/k/v dtype, and of a cache element (fp8 kinds: one byte).
constexpr std::size_t dtype_bytes(DType d) {
  return d == DType::fp32 ? 4 : 2;
}
constexpr std::size_t cache_elem_bytes(CacheDType c, DType d) {
  return c == CacheDType::auto_ ? dtype_bytes(d) : 1;
}

// A [tokens, heads, head_size] view: element (t, h, d) lives at
// data + t * token_stride + h * head_stride + d.
struct HeadTensor {
  void* data = nullptr;
  std::int64_t token_stride = 0;
  std::int64_t head_stride = 0;
};

// A paged cache view: the entry of (slot, head, d) with block = slot / block_size and
// offset = slot % block_size lives at
// data + block * block_stride + offset * slot_stride + head * head_stride + d.
// Every layout (nhd, hnd, packed K|V, any other order of block/head/slot) is a choice of these
// three strides and of `data` (packed V views start head_size elements after K).
struct CacheTensor {
  void* data = nullptr;
  std::int64_t block_stride = 0;
  std::int64_t slot_stride = 0;
  std::int64_t head_stride = 0;
};

struct RopeKvArgs {
  // ---- sizes
  std::int64_t num_tokens = 0;        // T: every token is rotated
  std::int64_t num_cache_tokens = 0;  // Tc <= T: only these are cached (CUDA-graph padding)
  std::int32_t num_q_heads = 0;       // Hq, a multiple of Hkv
  std::int32_t num_kv_heads = 0;      // Hkv
  std::int32_t q_head_size = 0;       // Dq (192 for MLA, else the head size)
  std::int32_t k_head_size = 0;       // Dk (64 for MLA's k_pe, else the head size)
  std::int32_t v_head_size = 0;       // Dv (512 for MLA's kv_c, else the head size)
  std::int32_t rot_dim = 0;           // R, even; k rotates dims [0, R)
  std::int32_t q_rot_offset = 0;      // q rotates dims [q_rot_offset, q_rot_offset + R) (MLA: 128)
  DType dtype = DType::bf16;          // q, k, v (and query_out)
  CacheDType cache_dtype = CacheDType::auto_;
  RopeStyle style = RopeStyle::neox;

  // ---- rotary inputs
  const std::int64_t* positions = nullptr;  // [T], each in [0, max_position)
  // [max_position, cos_sin_stride]: row p = cos(p * f_0 .. f_{R/2-1}) then sin(...)
  const void* cos_sin_cache = nullptr;
  bool cos_sin_fp32 = false;  // the table's dtype: fp32, or else the q/k/v dtype
  std::int64_t cos_sin_stride = 0;
  std::int64_t max_position = 0;

  // ---- q/k/v views (usually into one fused qkv tensor)
  HeadTensor query;            // [T, Hq, Dq], rotated in place unless query_out.data is set
  HeadTensor query_out;        // optional [T, Hq, Dq] destination for the rotated queries
  HeadTensor key;              // [T, Hkv, Dk]
  HeadTensor value;            // [Tc, Hkv, Dv]
  bool write_back_key = true;  // false: attention reads K from the cache only; `key` is untouched

  // ---- paged cache; slot_mapping == nullptr means RoPE only
  const std::int64_t* slot_mapping = nullptr;  // [Tc], -1 = do not write this token
  CacheTensor key_cache;
  CacheTensor value_cache;
  std::int32_t block_size = 0;
  std::int64_t num_blocks = 0;
  // fp8 caches only: device pointers to one float (scale_head_stride 0) or [Hkv] floats
  // (scale_head_stride 1); the cache holds fp8(x / scale).
  const float* k_scale = nullptr;
  const float* v_scale = nullptr;
  std::int32_t scale_head_stride = 0;
};

// One launch: rotate q and k, write rotated k and v into the cache. Checks only what it needs to
// pick a kernel (sizes, alignment); the data-dependent contract (positions in range, unique slots,
// finite scales, ...) is check_rope_kv_inputs()'s job, done once by the caller. A cache of 2^31
// or more slots is refused (cudaErrorInvalidValue): slots are split in 32-bit arithmetic.
cudaError_t rope_kv_fused(const RopeKvArgs& args, cudaStream_t stream);

// The number of elements each thread moves per access for these arguments (16 bytes when the
// shapes, strides and pointers allow it; 0 when no supported width divides them).
int rope_kv_vector_elems(const RopeKvArgs& args);

}  // namespace rkv
