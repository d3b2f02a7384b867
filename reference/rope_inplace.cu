#include "dispatch.cuh"
#include "rope_kv_device.cuh"
#include "unfused_pair.h"
#include "work_plan.h"

namespace rkv {
namespace detail {

constexpr int kMaxPairThreads = 512;

// One CTA per token; its threads stride over [q rows: rot (+ pass-through when query_out)][k rows].
template <typename T, int VEC, bool NEOX>
__global__ void rope_inplace_kernel(const RopeKvArgs a, const int q_rot, const int q_pass,
                                    const int k_rot) {
  const std::int64_t t = blockIdx.x;
  const int q_units = q_rot + q_pass;
  const int q_end = a.num_q_heads * q_units;
  const int total = q_end + a.num_kv_heads * k_rot;
  // The next kernel (the cache write) may be scheduled now: it waits for this one before reading
  // k. The position comes from before the previous kernel; q/k may come from it (PDL).
  allow_dependent_grid_launch();
  const std::int64_t cs_elem = a.cos_sin_fp32 ? 4 : sizeof(T);
  const void* cs_row =
      static_cast<const char*>(a.cos_sin_cache) + a.positions[t] * a.cos_sin_stride * cs_elem;
  wait_for_prerequisite_grid();
  for (int u = threadIdx.x; u < total; u += blockDim.x) {
    if (u < q_end) {
      // query: [T, Hq, Dq] -> query_out or in place
      const int h = u / q_units;
      const int w = u - h * q_units;
      const T* src = static_cast<const T*>(a.query.data) + t * a.query.token_stride +
                     std::int64_t{h} * a.query.head_stride;
      T* dst = a.query_out.data == nullptr
                   ? const_cast<T*>(src)
                   : static_cast<T*>(a.query_out.data) + t * a.query_out.token_stride +
                         std::int64_t{h} * a.query_out.head_stride;
      if (w < q_rot) {
        const auto r = rotate_unit<T, VEC, NEOX>(
            src, a.q_rot_offset, a.rot_dim, w,
            load_unit_cos_sin<T, VEC, NEOX>(cs_row, a.cos_sin_fp32, a.rot_dim, w));
#pragma unroll
        for (int i = 0; i < (NEOX ? 2 : 1); ++i)
          store_vec<T, VEC>(dst + r.dim[i], r.chunk[i]);
      } else {
        const int d = passthrough_dim(w - q_rot, VEC, a.q_rot_offset, a.rot_dim);
        store_vec<T, VEC>(dst + d, load_vec<T, VEC>(src + d));
      }
    } else {
      // key: [T, Hkv, Dk], in place
      const int h = (u - q_end) / k_rot;
      const int w = (u - q_end) - h * k_rot;
      T* row = static_cast<T*>(a.key.data) + t * a.key.token_stride +
               std::int64_t{h} * a.key.head_stride;
      const auto r = rotate_unit<T, VEC, NEOX>(
          row, 0, a.rot_dim, w,
          load_unit_cos_sin<T, VEC, NEOX>(cs_row, a.cos_sin_fp32, a.rot_dim, w));
#pragma unroll
      for (int i = 0; i < (NEOX ? 2 : 1); ++i)
        store_vec<T, VEC>(row + r.dim[i], r.chunk[i]);
    }
  }
}

// The row-warp layout (work_plan.h, RowWarpPlan) of the same work, where the fused kernel takes
// it too (the layout is not about fusion, so the pair gets it as well): one CTA per token, its
// warps over [q rows][k rows] of `rows_per_warp` whole rows each, one chunk a lane, partners by
// warp shuffle. A warp's loop index is the same on all its lanes, so they shuffle together.
template <typename T, int VEC>
__global__ void rope_inplace_row_warp_kernel(const RopeKvArgs a, const RowWarpPlan r,
                                             const int k_warps) {
  const std::int64_t t = blockIdx.x;
  allow_dependent_grid_launch();
  // The table is in the q/k dtype here (row_warp_layout leaves fp32 tables to the other kernel).
  const T* cs_row = static_cast<const T*>(a.cos_sin_cache) + a.positions[t] * a.cos_sin_stride;
  wait_for_prerequisite_grid();
  const int lane = threadIdx.x & 31, half_chunks = r.chunks / 2;
  std::uint32_t row_in_warp, c;
  r.per_row.divmod(static_cast<std::uint32_t>(lane), row_in_warp, c);
  const bool first_half = static_cast<int>(c) < half_chunks;
  const int pair = first_half ? static_cast<int>(c) : static_cast<int>(c) - half_chunks;
  const int partner = first_half ? lane + half_chunks : lane - half_chunks;
  const int d = static_cast<int>(c) * VEC;
  const Vec<T, VEC> cos_raw = load_vec<T, VEC>(cs_row + pair * VEC);
  const Vec<T, VEC> sin_raw = load_vec<T, VEC>(cs_row + a.rot_dim / 2 + pair * VEC);
  for (int w = static_cast<int>(threadIdx.x / 32); w < r.q_warps + k_warps;
       w += static_cast<int>(blockDim.x / 32)) {
    const bool is_q = w < r.q_warps;
    const int h = (is_q ? w : w - r.q_warps) * r.rows_per_warp + static_cast<int>(row_in_warp);
    const bool active = static_cast<int>(row_in_warp) < r.rows_per_warp &&
                        h < (is_q ? a.num_q_heads : a.num_kv_heads);
    const int hs = active ? h : 0;  // idle lanes read head 0 and store nothing
    const T* src = is_q ? static_cast<const T*>(a.query.data) + t * a.query.token_stride +
                              std::int64_t{hs} * a.query.head_stride + a.q_rot_offset
                        : static_cast<const T*>(a.key.data) + t * a.key.token_stride +
                              std::int64_t{hs} * a.key.head_stride;
    const Vec<T, VEC> out = rotate_row_warp_chunk<T, VEC>(load_vec<T, VEC>(src + d), partner,
                                                          first_half, cos_raw, sin_raw);
    if (!active) continue;
    T* dst = const_cast<T*>(src);
    if (is_q && a.query_out.data != nullptr)
      dst = static_cast<T*>(a.query_out.data) + t * a.query_out.token_stride +
            std::int64_t{h} * a.query_out.head_stride + a.q_rot_offset;
    store_vec<T, VEC>(dst + d, out);
  }
}

}  // namespace detail

cudaError_t rope_inplace(const RopeKvArgs& a, cudaStream_t stream) {
  using namespace detail;
  if (check_launch_args(a) != nullptr) return cudaErrorInvalidValue;
  if (a.num_tokens == 0) return cudaSuccess;
  const int vec = rope_kv_vector_elems(a);
  const WorkPlan plan = make_fused_plan(a, vec);
  const int rot = rotation_units(a, vec);
  const int q_pass = a.query_out.data != nullptr ? (a.q_head_size - a.rot_dim) / vec : 0;
  const int total = a.num_q_heads * (rot + q_pass) + a.num_kv_heads * rot;
  const int threads = total < kMaxPairThreads ? (total + 31) / 32 * 32 : kMaxPairThreads;
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_vec<T>(vec, [&](auto v) {
      constexpr int V = decltype(v)::value;
      // The row-warp layout for rows whose half rows split sectors (80-wide heads), at decode
      // sizes: up to one CTA per SM, one wave whatever the occupancy. There it was 4-6 % faster
      // than the other kernel; on 64-256-wide rows 3-7 % slower, and at 65k tokens 58 % slower
      // (results/NOTES.md, session 13), so the pair keeps whichever of its kernels is faster.
      if (row_warp_layout(a, plan) && neox_half_rows_split_sectors(a, plan) &&
          a.num_tokens <= current_sm_count()) {
        const RowWarpPlan r = make_row_warp_plan(a, plan);
        const int k_warps = (a.num_kv_heads + r.rows_per_warp - 1) / r.rows_per_warp;  // in place
        const int warps = r.q_warps + k_warps;
        // Every warp of a token at once where they fit a CTA (40x8x80: 17 warps): no warp loops.
        const int rw_threads = 32 * (warps < 32 ? warps : 32);
        return launch_kernel(rope_inplace_row_warp_kernel<T, V>,
                             static_cast<unsigned>(a.num_tokens), rw_threads, stream,
                             a.programmatic_dependent_launch, a, r, k_warps);
      }
      return dispatch_style(a.style, [&](auto neox) {
        return launch_kernel(rope_inplace_kernel<T, V, decltype(neox)::value>,
                             static_cast<unsigned>(a.num_tokens), threads, stream,
                             a.programmatic_dependent_launch, a, rot, q_pass, rot);
      });
    });
  });
}

cudaError_t unfused_pair(const RopeKvArgs& a, cudaStream_t stream) {
  const cudaError_t e = rope_inplace(a, stream);
  if (e != cudaSuccess) return e;
  return cache_write(a, stream);
}

}  // namespace rkv
