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

// Defined: RopeKvArgs has `programmatic_dependent_launch` (a binding can test for it).
#define RKV_HAS_PDL 1

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
// Refused by the launchers (check_launch_args) when, along a dim longer than one, distinct rows
// overlap (head_stride < head_size, or token_stride shorter than a token's heads) or the view's
// last element is not addressable in 64 bits; strides along dims of length one are ignored.
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
// Refused when, sorted by stride, a dim longer than one does not step past everything inside it
// (distinct entries would overlap), or the last entry is not addressable in 64 bits.
struct CacheTensor {
  void* data = nullptr;
  std::int64_t block_stride = 0;
  std::int64_t slot_stride = 0;
  std::int64_t head_stride = 0;
};

// Every launcher (rope_kv_fused, and the reference pair's rope_inplace and cache_write) refuses
// the arguments marked "refused" below with cudaErrorInvalidValue before any CUDA call, writing
// nothing. Shape fields are checked even when num_tokens is 0; pointers only where a launch with
// these sizes dereferences them. "Caching" means slot_mapping != nullptr and num_cache_tokens > 0.
struct RopeKvArgs {
  // ---- sizes
  // T: every token is rotated. Refused: < 0, or >= 2^31.
  std::int64_t num_tokens = 0;
  // Tc: only the first Tc tokens are cached (CUDA-graph padding). Refused: outside [0, T].
  std::int64_t num_cache_tokens = 0;
  std::int32_t num_q_heads = 0;   // Hq. Refused: <= 0, or not a multiple of Hkv.
  std::int32_t num_kv_heads = 0;  // Hkv. Refused: <= 0.
  // Dq (192 for MLA, else the head size), Dk (64 for MLA's k_pe), Dv (512 for MLA's kv_c).
  // Refused: any <= 0, or Hq * Dq + Hkv * (Dk + Dv) >= 2^31 (per-token indices are 32-bit).
  std::int32_t q_head_size = 0;
  std::int32_t k_head_size = 0;
  std::int32_t v_head_size = 0;
  // R: k rotates dims [0, R). Refused: odd, <= 0, or > Dk.
  std::int32_t rot_dim = 0;
  // q rotates dims [q_rot_offset, q_rot_offset + R) (MLA: 128). Refused: < 0, or the window
  // ends past Dq.
  std::int32_t q_rot_offset = 0;
  DType dtype = DType::bf16;  // q, k, v (and query_out). Refused: not an enumerator.
  CacheDType cache_dtype = CacheDType::auto_;  // Refused: not an enumerator.
  RopeStyle style = RopeStyle::neox;           // Refused: not an enumerator.

  // ---- rotary inputs
  const std::int64_t* positions =
      nullptr;  // [T], each in [0, max_position). Refused: null (T > 0).
  // [max_position, cos_sin_stride]: row p = cos(p * f_0 .. f_{R/2-1}) then sin(...).
  // Refused: null (T > 0).
  const void* cos_sin_cache = nullptr;
  bool cos_sin_fp32 = false;  // the table's dtype: fp32, or else the q/k/v dtype
  // Entries from one row to the next. Refused: < R (a row holds R entries), or a table too large
  // to index in 64 bits.
  std::int64_t cos_sin_stride = 0;
  std::int64_t max_position = 0;  // Refused: <= 0.

  // ---- q/k/v views (usually into one fused qkv tensor); strides as HeadTensor says
  // [T, Hq, Dq], rotated in place unless query_out.data is set. Refused: data null (T > 0).
  HeadTensor query;
  HeadTensor query_out;  // optional [T, Hq, Dq] destination for the rotated queries
  // [T, Hkv, Dk]. Refused: data null (T > 0; the pair always rotates k in place).
  HeadTensor key;
  HeadTensor value;            // [Tc, Hkv, Dv]. Refused: data null when caching.
  bool write_back_key = true;  // false: attention reads K from the cache only; `key` is untouched

  // ---- paged cache; slot_mapping == nullptr means RoPE only
  const std::int64_t* slot_mapping = nullptr;  // [Tc], -1 = do not write this token
  // Refused when caching: data null (either view), or strides as CacheTensor says.
  CacheTensor key_cache;
  CacheTensor value_cache;
  // Refused when caching: block_size <= 0, num_blocks <= 0, or num_blocks * block_size >= 2^31
  // (slots are split into block and offset in 32 bits).
  std::int32_t block_size = 0;
  std::int64_t num_blocks = 0;
  // fp8 caches only: device pointers to one float (scale_head_stride 0) or [Hkv] floats
  // (scale_head_stride 1); the cache holds fp8(x / scale). Refused: a null scale when caching
  // into an fp8 cache; scale_head_stride other than 0 or 1 (always: larger strides would read
  // past the [Hkv] scales).
  const float* k_scale = nullptr;
  const float* v_scale = nullptr;
  std::int32_t scale_head_stride = 0;

  // ---- launch
  // true: launch with programmatic dependent launch (PDL, Hopper; cudaLaunchKernelEx with
  // programmatic stream serialization), for every kernel of the call (the fused kernel, or each
  // kernel of the pair). The kernel may then start while the previous kernel in the stream is
  // still running: it reads positions, slot_mapping, the cos/sin entries and the scales first,
  // then waits (griddepcontrol.wait) for that kernel to complete, and only then reads q/k/v and
  // writes anything. So with this flag the previous kernel may write q/k/v (and read the outputs),
  // but positions, slot_mapping, the cos/sin table and the scales must be complete before it
  // starts. Each kernel also lets the next one start early (griddepcontrol.launch_dependents
  // at entry). false: an ordinary launch; the two instructions are then no-ops.
  bool programmatic_dependent_launch = false;
};

// Also refused: arguments for which no access width (16, 8 or 4 bytes) divides the head sizes,
// R (R/2 for neox), q_rot_offset, every stride and every pointer's alignment.

// nullptr when the launchers accept `args`, else a short reason naming the field ("rot_dim is
// larger than k_head_size"). Host-only and O(1): it reads the fields and pointer values, never
// the memory behind them, and makes no CUDA call, so it works without a GPU. Every launcher calls
// it first and returns cudaErrorInvalidValue when it returns a reason.
const char* check_launch_args(const RopeKvArgs& args);

// One launch: rotate q and k, write rotated k and v into the cache. Refuses what
// check_launch_args refuses (cudaErrorInvalidValue, nothing launched); the data-dependent
// contract (positions in range, unique slots, finite scales, views that do not overlap each
// other, ...) is check_rope_kv_inputs()'s job, done once by the caller.
cudaError_t rope_kv_fused(const RopeKvArgs& args, cudaStream_t stream);

// The launch rope_kv_fused(args) makes on the current device: its kernel ("row_warp",
// "decode_half", "decode_roles", "prefill_half", "wide", "flat_wide", "strided",
// "strided_rotating", "phased", "flat", "token_warp"; "none" when the call has nothing to do),
// whether a token's units run in role-major order, whether the kernel reads compact parameter
// blocks instead of RopeKvArgs (the row-warp kernel always; the decode role-major kernels up to a
// launch size: the same kernel name, another kernel), and the grid. Asks the runtime for the
// kernels' occupancy (a GPU is needed) and launches nothing. Refuses what check_launch_args
// refuses (cudaErrorInvalidValue); a grid past 2^31 - 1 CTAs is cudaErrorInvalidConfiguration, as
// in rope_kv_fused.
struct RopeKvFusedLaunch {
  const char* kernel = "none";
  bool role_major = false;
  bool compact = false;      // compact parameter blocks (row_warp_params.h, decode_role_params.h)
  std::int64_t ctas = 0;     // CTAs of 128 threads
  std::int64_t threads = 0;  // the units (or lanes) the grid covers, padding included
};
cudaError_t rope_kv_fused_launch(const RopeKvArgs& args, RopeKvFusedLaunch* launch);

// The number of elements each thread moves per access for these arguments (16 bytes when the
// shapes, strides and pointers allow it; 0 when no supported width divides them).
int rope_kv_vector_elems(const RopeKvArgs& args);

}  // namespace rkv
