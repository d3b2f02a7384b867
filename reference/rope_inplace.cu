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

}  // namespace detail

cudaError_t rope_inplace(const RopeKvArgs& a, cudaStream_t stream) {
  using namespace detail;
  if (check_launch_args(a) != nullptr) return cudaErrorInvalidValue;
  if (a.num_tokens == 0) return cudaSuccess;
  const int vec = rope_kv_vector_elems(a);
  const int rot = rotation_units(a, vec);
  const int q_pass = a.query_out.data != nullptr ? (a.q_head_size - a.rot_dim) / vec : 0;
  const int total = a.num_q_heads * (rot + q_pass) + a.num_kv_heads * rot;
  const int threads = total < kMaxPairThreads ? (total + 31) / 32 * 32 : kMaxPairThreads;
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_vec<T>(vec, [&](auto v) {
      return dispatch_style(a.style, [&](auto neox) {
        return launch_kernel(rope_inplace_kernel<T, decltype(v)::value, decltype(neox)::value>,
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
