#include "dispatch.cuh"
#include "rope_kv_device.cuh"
#include "unfused_pair.h"
#include "work_plan.h"

namespace rkv {
namespace detail {

constexpr int kMaxCacheThreads = 512;

// One CTA per cached token; its threads stride over [k rows][v rows] in VEC-element chunks.
template <typename T, CacheDType C, int VEC>
__global__ void cache_write_kernel(const RopeKvArgs a) {
  using CacheT = typename CacheElem<T, C>::type;
  allow_dependent_grid_launch();  // the next kernel waits for this one before reading the cache
  const std::int64_t t = blockIdx.x;
  const std::int64_t slot = a.slot_mapping[t];  // from before the previous kernel
  // Every CTA waits, so this grid never completes before the one it depends on (k comes from it).
  wait_for_prerequisite_grid();
  if (slot < 0) return;
  const int k_chunks = a.k_head_size / VEC;
  const int v_chunks = a.v_head_size / VEC;
  const int k_end = a.num_kv_heads * k_chunks;
  const int total = k_end + a.num_kv_heads * v_chunks;
  for (int u = threadIdx.x; u < total; u += blockDim.x) {
    const bool is_key = u < k_end;
    const int h = is_key ? u / k_chunks : (u - k_end) / v_chunks;
    const int d = is_key ? (u - h * k_chunks) * VEC : (u - k_end - h * v_chunks) * VEC;
    const HeadTensor& src = is_key ? a.key : a.value;
    const T* row =
        static_cast<const T*>(src.data) + t * src.token_stride + std::int64_t{h} * src.head_stride;
    const float scale =
        C == CacheDType::auto_ ? 1.f : (is_key ? a.k_scale : a.v_scale)[h * a.scale_head_stride];
    store_cache_chunk<T, C, VEC>(
        cache_entry<CacheT>(is_key ? a.key_cache : a.value_cache, slot, a.block_size, h, d),
        load_vec<T, VEC>(row + d), scale);
  }
}

}  // namespace detail

cudaError_t cache_write(const RopeKvArgs& a, cudaStream_t stream) {
  using namespace detail;
  if (check_launch_args(a) != nullptr) return cudaErrorInvalidValue;
  if (!writes_cache(a)) return cudaSuccess;
  const int vec = rope_kv_vector_elems(a);
  const int total = a.num_kv_heads * (a.k_head_size + a.v_head_size) / vec;
  const int threads = total < kMaxCacheThreads ? (total + 31) / 32 * 32 : kMaxCacheThreads;
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_cache(a.cache_dtype, [&](auto cache) {
      return dispatch_vec<T>(vec, [&](auto v) {
        return launch_kernel(cache_write_kernel<T, decltype(cache)::value, decltype(v)::value>,
                             static_cast<unsigned>(a.num_cache_tokens), threads, stream,
                             a.programmatic_dependent_launch, a);
      });
    });
  });
}

}  // namespace rkv
