// rope_kv_fused: RoPE on q and k plus the paged cache write of k and v, in one launch.
//
// Work units (work_plan.h) are flattened over [token, unit] and handed out grid-stride: at N=1 a
// 32x8x128 bf16 case is 512 units, one per thread over several CTAs; at large N the grid is capped
// at what is resident at once, so each thread streams through many units instead of the hardware
// launching and retiring hundreds of thousands of tiny CTAs. No lane idles for GQA/MQA. Each unit
// loads its 16-byte chunks before it stores, and k is rotated and cached from registers, so k is
// read once (the unfused pair reads it twice).
#include <algorithm>

#include "dispatch.cuh"
#include "rope_kv.h"
#include "rope_kv_device.cuh"
#include "work_plan.h"

namespace rkv {
namespace detail {

constexpr int kFusedThreads = 128;

// One unit of token t: a q chunk (pair), a k chunk (pair) and its cache entry, or a v chunk and
// its cache entry. Written with one call site each for the rotation and the cache store: the fp8
// store is long, and at decode sizes the kernel's time is mostly instruction fetch and latency,
// so every inlined copy costs (measured: 1704 SASS instructions with four copies ran 3.7 us at
// N=1 in isolation; see results/NOTES.md).
template <typename T, CacheDType C, int VEC, bool NEOX>
__device__ __forceinline__ void fused_unit(const RopeKvArgs& a, const WorkPlan& p,
                                           const std::int64_t t, const int u) {
  using CacheT = typename CacheElem<T, C>::type;
  const bool is_q = u < p.q_end;
  const bool is_k = !is_q && u < p.k_end;
  // Only the first Tc tokens own a slot; -1 (or no mapping) means nothing goes to the cache.
  const std::int64_t slot =
      (is_q || a.slot_mapping == nullptr || t >= a.num_cache_tokens) ? -1 : a.slot_mapping[t];

  RotatedChunks<T, VEC> r;
  int h;
  if (is_q || is_k) {
    // query: [T, Hq, Dq] -> query_out (or in place); key: [T, Hkv, Dk] -> in place and the cache
    const int local = is_q ? u : static_cast<int>(u - p.q_end);
    const int units = is_q ? p.q_units : p.k_units;
    const int rot_units = is_q ? p.q_rot : p.k_rot;
    const int off = is_q ? a.q_rot_offset : 0;
    const HeadTensor& in = is_q ? a.query : a.key;
    h = local / units;
    const int w = local - h * units;
    T* src = static_cast<T*>(in.data) + t * in.token_stride + std::int64_t{h} * in.head_stride;
    T* dst = src;
    if (is_q && a.query_out.data != nullptr)
      dst = static_cast<T*>(a.query_out.data) + t * a.query_out.token_stride +
            std::int64_t{h} * a.query_out.head_stride;
    const bool rotated = w < rot_units;
    if (rotated) {
      const void* cs_row = static_cast<const char*>(a.cos_sin_cache) +
                           a.positions[t] * a.cos_sin_stride * (a.cos_sin_fp32 ? 4 : sizeof(T));
      r = rotate_unit<T, VEC, NEOX>(src, off, a.rot_dim, w, cs_row, a.cos_sin_fp32);
    } else {
      r.dim[0] = passthrough_dim(w - rot_units, VEC, off, a.rot_dim);
      r.chunk[0] = load_vec<T, VEC>(src + r.dim[0]);
      r.count = 1;
    }
    // Rotated chunks go back (q always, k unless cache-only); pass-through q goes to query_out.
    if (is_q || (rotated && a.write_back_key)) {
#pragma unroll
      for (int i = 0; i < (NEOX ? 2 : 1); ++i)
        if (i < r.count) store_vec<T, VEC>(dst + r.dim[i], r.chunk[i]);
    }
  } else {
    // value: [Tc, Hkv, Dv] -> value_cache
    if (slot < 0) return;
    const int uv = static_cast<int>(u - p.k_end);
    h = uv / p.v_units;
    r.dim[0] = (uv - h * p.v_units) * VEC;
    r.chunk[0] = load_vec<T, VEC>(static_cast<const T*>(a.value.data) + t * a.value.token_stride +
                                  std::int64_t{h} * a.value.head_stride + r.dim[0]);
    r.count = 1;
  }
  if (slot < 0) return;

  // The scale is read only for a token with a slot: RoPE-only calls may pass no scales at all.
  const ScaleDivider scale = ScaleDivider::of(
      C == CacheDType::auto_ ? 1.f : (is_k ? a.k_scale : a.v_scale)[h * a.scale_head_stride]);
  const CacheTensor& cache = is_k ? a.key_cache : a.value_cache;
#pragma unroll 1
  for (int i = 0; i < r.count; ++i) {
    const int dim = i == 0 ? r.dim[0] : r.dim[1];
    const Vec<T, VEC> chunk = i == 0 ? r.chunk[0] : r.chunk[1];
    store_cache_chunk<T, C, VEC>(cache_entry<CacheT>(cache, slot, a.block_size, h, dim), chunk,
                                 scale);
  }
}

template <typename T, CacheDType C, int VEC, bool NEOX>
__global__ void __launch_bounds__(kFusedThreads)
    rope_kv_fused_kernel(const RopeKvArgs a, const WorkPlan p, const std::int64_t total_units) {
  const std::int64_t stride = std::int64_t{gridDim.x} * kFusedThreads;
  for (std::int64_t gid = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x;
       gid < total_units; gid += stride) {
    // 32-bit division when the index space allows it: the common case, and much cheaper.
    std::int64_t t;
    int u;
    if (total_units <= 0xffffffffLL) {
      const auto g = static_cast<std::uint32_t>(gid);
      const auto per = static_cast<std::uint32_t>(p.units_per_token);
      t = g / per;
      u = static_cast<int>(g - static_cast<std::uint32_t>(t) * per);
    } else {
      t = gid / p.units_per_token;
      u = static_cast<int>(gid - t * p.units_per_token);
    }
    fused_unit<T, C, VEC, NEOX>(a, p, t, u);
  }
}

// CTAs of one instantiation that fit on the device at once (cached: the occupancy query costs
// microseconds, a decode-sized launch about two).
template <typename Kernel>
std::int64_t resident_blocks(Kernel kernel) {
  static const std::int64_t blocks = [&] {
    int device = 0, sms = 0, per_sm = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kFusedThreads, 0) !=
            cudaSuccess)
      return std::int64_t{1} << 20;
    return std::int64_t{sms} * (per_sm > 0 ? per_sm : 1);
  }();
  return blocks;
}

}  // namespace detail

cudaError_t rope_kv_fused(const RopeKvArgs& a, cudaStream_t stream) {
  using namespace detail;
  if (a.num_tokens < 0 || a.num_cache_tokens < 0 || a.num_cache_tokens > a.num_tokens)
    return cudaErrorInvalidValue;
  if (a.num_tokens == 0) return cudaSuccess;
  const int vec = rope_kv_vector_elems(a);
  if (vec == 0) return cudaErrorInvalidValue;
  const WorkPlan plan = make_fused_plan(a, vec);
  const std::int64_t total = a.num_tokens * plan.units_per_token;
  if (total == 0) return cudaSuccess;
  const std::int64_t needed = (total + kFusedThreads - 1) / kFusedThreads;

  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_cache(a.cache_dtype, [&](auto cache) {
      return dispatch_vec<T>(vec, [&](auto v) {
        return dispatch_style(a.style, [&](auto neox) {
          const auto kernel =
              rope_kv_fused_kernel<T, decltype(cache)::value, decltype(v)::value,
                                   decltype(neox)::value>;
          const std::int64_t blocks = std::min(needed, resident_blocks(kernel));
          kernel<<<static_cast<unsigned>(blocks), kFusedThreads, 0, stream>>>(a, plan, total);
          return cudaGetLastError();
        });
      });
    });
  });
}

}  // namespace rkv
