// check_launch_args: what every launcher refuses before its first CUDA call (rope_kv.h documents
// each refusal beside its field). Plain host C++, O(1): it reads the sizes, strides, flags and
// pointer values of RopeKvArgs and nothing they point at, so it runs (and is tested) without a GPU.
// The data-dependent half of the contract (positions in range, unique slots, finite scales, views
// that do not overlap each other) stays with check_rope_kv_inputs, done once by the caller.
#include <cstdint>
#include <limits>

#include "rope_kv.h"
#include "work_plan.h"

namespace rkv {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// Token and slot indices, grid sizes and per-token unit counts are 32-bit in the kernels.
constexpr std::int64_t kIndexLimit = 0x7fffffffLL;

// a * b + c into `out` when it fits in int64 (all operands >= 0).
bool fits_mul_add(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t* out) {
  std::int64_t product;
  if (__builtin_mul_overflow(a, b, &product)) return false;
  return !__builtin_add_overflow(product, c, out);
}

// A [tokens, heads, dim] view the kernels index as data + t * token_stride + h * head_stride + d
// in 64-bit element offsets. Strides only matter along dims longer than one (frameworks hand out
// arbitrary strides there). Distinct rows must not overlap (the kernels rotate in place, one
// thread per chunk), which also makes every stride that matters positive; and the view's last
// byte must be addressable in 64 bits.
const char* check_head_view(const HeadTensor& v, std::int64_t tokens, std::int64_t heads,
                            std::int64_t dim, std::int64_t elem_bytes, const char* overlap,
                            const char* too_large) {
  std::int64_t extent = dim;  // elements from the first to one past the last
  if (heads > 1) {
    if (v.head_stride < dim) return overlap;
    if (!fits_mul_add(heads - 1, v.head_stride, extent, &extent)) return too_large;
  }
  if (tokens > 1) {
    if (v.token_stride < extent) return overlap;
    if (!fits_mul_add(tokens - 1, v.token_stride, extent, &extent)) return too_large;
  }
  if (extent > kInt64Max / elem_bytes) return too_large;
  return nullptr;
}

// A paged cache view: entries (block, offset, head) at block * block_stride + offset *
// slot_stride + head * head_stride. Sorted by stride, each dim longer than one must step past
// everything inside it, so distinct entries never overlap (two tokens would race on one entry);
// the last entry must be addressable in 64 bits.
const char* check_cache_view(const CacheTensor& c, const RopeKvArgs& a, std::int64_t dim,
                             std::int64_t elem_bytes, const char* overlap, const char* too_large) {
  struct Axis {
    std::int64_t stride, extent;
  };
  Axis axes[3] = {{c.block_stride, a.num_blocks},
                  {c.slot_stride, a.block_size},
                  {c.head_stride, a.num_kv_heads}};
  // Three elements: insertion sort by stride.
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && axes[j].stride < axes[j - 1].stride; --j) {
      const Axis t = axes[j];
      axes[j] = axes[j - 1];
      axes[j - 1] = t;
    }
  std::int64_t extent = dim;
  for (const Axis& x : axes) {
    if (x.extent <= 1) continue;
    if (x.stride < extent) return overlap;
    if (!fits_mul_add(x.extent - 1, x.stride, extent, &extent)) return too_large;
  }
  if (extent > kInt64Max / elem_bytes) return too_large;
  return nullptr;
}

bool valid_dtype(DType d) {
  return d == DType::bf16 || d == DType::fp16 || d == DType::fp32;
}
bool valid_cache_dtype(CacheDType c) {
  return c == CacheDType::auto_ || c == CacheDType::fp8_e4m3 || c == CacheDType::fp8_e5m2;
}
bool valid_style(RopeStyle s) {
  return s == RopeStyle::neox || s == RopeStyle::gptj;
}

}  // namespace

const char* check_launch_args(const RopeKvArgs& a) {
  // ---- sizes (checked even with no tokens: they describe the tensors, not the batch)
  if (a.num_tokens < 0) return "num_tokens is negative";
  if (a.num_tokens > kIndexLimit) return "num_tokens is 2^31 or more";
  if (a.num_cache_tokens < 0 || a.num_cache_tokens > a.num_tokens)
    return "num_cache_tokens is outside [0, num_tokens]";
  if (a.num_q_heads <= 0) return "num_q_heads is not positive";
  if (a.num_kv_heads <= 0) return "num_kv_heads is not positive";
  if (a.num_q_heads % a.num_kv_heads != 0) return "num_q_heads is not a multiple of num_kv_heads";
  if (a.q_head_size <= 0) return "q_head_size is not positive";
  if (a.k_head_size <= 0) return "k_head_size is not positive";
  if (a.v_head_size <= 0) return "v_head_size is not positive";
  if (a.rot_dim <= 0 || a.rot_dim % 2 != 0) return "rot_dim is not even and positive";
  if (a.rot_dim > a.k_head_size) return "rot_dim is larger than k_head_size";
  if (a.q_rot_offset < 0) return "q_rot_offset is negative";
  if (std::int64_t{a.q_rot_offset} + a.rot_dim > a.q_head_size)
    return "q_rot_offset + rot_dim is larger than q_head_size";
  // Per-token unit counts and the fused kernel's dividers are 32-bit.
  if (std::int64_t{a.num_q_heads} * a.q_head_size +
          std::int64_t{a.num_kv_heads} * (std::int64_t{a.k_head_size} + a.v_head_size) >
      kIndexLimit)
    return "a token has 2^31 or more q/k/v elements";
  if (!valid_dtype(a.dtype)) return "dtype is not a DType";
  if (!valid_cache_dtype(a.cache_dtype)) return "cache_dtype is not a CacheDType";
  if (!valid_style(a.style)) return "style is not a RopeStyle";
  if (a.scale_head_stride != 0 && a.scale_head_stride != 1)
    return "scale_head_stride is neither 0 nor 1";

  // ---- the rotary table: row p starts at p * cos_sin_stride and holds R entries
  if (a.max_position <= 0) return "max_position is not positive";
  if (a.cos_sin_stride < a.rot_dim) return "cos_sin_stride is shorter than rot_dim";
  const std::int64_t cs_elem = a.cos_sin_fp32 ? 4 : static_cast<std::int64_t>(dtype_bytes(a.dtype));
  if (a.max_position > kInt64Max / cs_elem / a.cos_sin_stride)
    return "cos_sin_cache is too large to index in 64 bits";

  // ---- q/k/v views
  const auto elem = static_cast<std::int64_t>(dtype_bytes(a.dtype));
  const char* e =
      check_head_view(a.query, a.num_tokens, a.num_q_heads, a.q_head_size, elem,
                      "query strides overlap rows", "query is too large to index in 64 bits");
  if (e == nullptr && a.query_out.data != nullptr)
    e = check_head_view(a.query_out, a.num_tokens, a.num_q_heads, a.q_head_size, elem,
                        "query_out strides overlap rows",
                        "query_out is too large to index in 64 bits");
  if (e == nullptr)
    e = check_head_view(a.key, a.num_tokens, a.num_kv_heads, a.k_head_size, elem,
                        "key strides overlap rows", "key is too large to index in 64 bits");
  if (e != nullptr) return e;
  // Dereferenced by every launch with a token (the pair always rotates k in place).
  if (a.num_tokens > 0) {
    if (a.positions == nullptr) return "positions is null";
    if (a.cos_sin_cache == nullptr) return "cos_sin_cache is null";
    if (a.query.data == nullptr) return "query.data is null";
    if (a.key.data == nullptr) return "key.data is null";
  }

  // ---- the cache, when any token can be written to it
  if (writes_cache(a)) {
    if (a.block_size <= 0) return "block_size is not positive";
    if (a.num_blocks <= 0) return "num_blocks is not positive";
    if (a.num_blocks > kIndexLimit / a.block_size) return "the cache has 2^31 or more slots";
    if (a.value.data == nullptr) return "value.data is null";
    if (a.key_cache.data == nullptr) return "key_cache.data is null";
    if (a.value_cache.data == nullptr) return "value_cache.data is null";
    e = check_head_view(a.value, a.num_cache_tokens, a.num_kv_heads, a.v_head_size, elem,
                        "value strides overlap rows", "value is too large to index in 64 bits");
    const auto cache_elem = static_cast<std::int64_t>(cache_elem_bytes(a.cache_dtype, a.dtype));
    if (e == nullptr)
      e = check_cache_view(a.key_cache, a, a.k_head_size, cache_elem,
                           "key_cache strides make distinct entries overlap",
                           "key_cache is too large to index in 64 bits");
    if (e == nullptr)
      e = check_cache_view(a.value_cache, a, a.v_head_size, cache_elem,
                           "value_cache strides make distinct entries overlap",
                           "value_cache is too large to index in 64 bits");
    if (e != nullptr) return e;
    if (a.cache_dtype != CacheDType::auto_) {
      if (a.k_scale == nullptr) return "k_scale is null (an fp8 cache needs it)";
      if (a.v_scale == nullptr) return "v_scale is null (an fp8 cache needs it)";
    }
  }

  // ---- one access width must fit every shape, stride and pointer (work_plan.h)
  if (rope_kv_vector_elems(a) == 0)
    return "no access width fits the head sizes, rot_dim, strides and pointer alignment";
  return nullptr;
}

}  // namespace rkv
