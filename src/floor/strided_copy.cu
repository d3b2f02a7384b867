#include "floor/strided_copy.h"

#include <algorithm>

namespace rkv {
namespace {

constexpr int kThreads = 256;

// The vector a flat index names: `span_vectors` of every `row_vectors` are copied.
__device__ __forceinline__ std::uint64_t vector_at(std::uint32_t i, std::uint32_t span_vectors,
                                                   std::uint32_t row_vectors) {
  return std::uint64_t{i / span_vectors} * row_vectors + i % span_vectors;
}

// One tile of kThreads * VECTORS vectors from `first` on: each thread loads all of its vectors
// before it stores any, so VECTORS 16-byte loads are in flight a thread and the probe measures the
// shape, not a latency limit.
template <int VECTORS>
__device__ __forceinline__ void copy_tile(const uint4* src, uint4* dst, std::uint32_t first,
                                          std::uint32_t vectors, std::uint32_t span_vectors,
                                          std::uint32_t row_vectors, std::uint32_t flip) {
  uint4 v[VECTORS];
  std::uint64_t at[VECTORS];
#pragma unroll
  for (int k = 0; k < VECTORS; ++k) {
    const std::uint32_t i = first + k * kThreads;
    at[k] = vector_at(i, span_vectors, row_vectors);
    if (i < vectors) v[k] = src[at[k]];
  }
#pragma unroll
  for (int k = 0; k < VECTORS; ++k) {
    if (first + k * kThreads >= vectors) break;
    dst[at[k]] = make_uint4(v[k].x ^ flip, v[k].y ^ flip, v[k].z ^ flip, v[k].w ^ flip);
  }
}

template <int VECTORS>
__global__ void __launch_bounds__(kThreads)
    tile_copy_kernel(const uint4* src, uint4* dst, std::uint32_t vectors,
                     std::uint32_t span_vectors, std::uint32_t row_vectors, std::uint32_t flip) {
  copy_tile<VECTORS>(src, dst, blockIdx.x * (kThreads * VECTORS) + threadIdx.x, vectors,
                     span_vectors, row_vectors, flip);
}

constexpr int kGridStrideVectors = 4;

__global__ void __launch_bounds__(kThreads)
    grid_stride_copy_kernel(const uint4* src, uint4* dst, std::uint32_t vectors,
                            std::uint32_t span_vectors, std::uint32_t row_vectors,
                            std::uint32_t flip) {
  constexpr std::uint32_t kTile = kThreads * kGridStrideVectors;
  // 64-bit, so the last tile's start past 2^32 cannot wrap.
  for (std::uint64_t tile = blockIdx.x; tile * kTile < vectors; tile += gridDim.x)
    copy_tile<kGridStrideVectors>(src, dst, static_cast<std::uint32_t>(tile * kTile) + threadIdx.x,
                                  vectors, span_vectors, row_vectors, flip);
}

template <int VECTORS>
unsigned tiles_of(std::int64_t vectors) {
  constexpr std::int64_t per_tile = std::int64_t{kThreads} * VECTORS;
  return static_cast<unsigned>((vectors + per_tile - 1) / per_tile);
}

}  // namespace

cudaError_t grid_stride_resident_ctas(int* ctas) {
  int device = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_stride_copy_kernel, kThreads,
                                                      0);
  if (e != cudaSuccess) return e;
  *ctas = sms * (per_sm > 0 ? per_sm : 1);
  return cudaSuccess;
}

cudaError_t launch_strided_copy(const void* src, void* dst, std::int64_t rows, CopyPattern p,
                                std::uint32_t flip, cudaStream_t stream, CopyKernel k,
                                int resident_ctas) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(src) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
  if (!aligned || rows < 1 || p.span_bytes < 16 || p.span_bytes % 16 != 0 ||
      p.row_bytes % 16 != 0 || p.span_bytes > p.row_bytes ||
      rows > kMaxStridedCopyVectors / (p.span_bytes / 16) ||
      !copy_kernel_applies(k, src == dst, flip))
    return cudaErrorInvalidValue;
  const std::int64_t vectors = rows * (p.span_bytes / 16);
  const auto* in = static_cast<const uint4*>(src);
  auto* out = static_cast<uint4*>(dst);
  const auto n = static_cast<std::uint32_t>(vectors);
  const auto span = static_cast<std::uint32_t>(p.span_bytes / 16);
  const auto row = static_cast<std::uint32_t>(p.row_bytes / 16);
  switch (k) {
    case CopyKernel::tile4:
      tile_copy_kernel<4>
          <<<tiles_of<4>(vectors), kThreads, 0, stream>>>(in, out, n, span, row, flip);
      break;
    case CopyKernel::tile8:
      tile_copy_kernel<8>
          <<<tiles_of<8>(vectors), kThreads, 0, stream>>>(in, out, n, span, row, flip);
      break;
    case CopyKernel::grid_stride: {
      if (resident_ctas <= 0)
        if (const cudaError_t e = grid_stride_resident_ctas(&resident_ctas); e != cudaSuccess)
          return e;
      const unsigned tiles = tiles_of<kGridStrideVectors>(vectors);
      const unsigned ctas = std::min(tiles, static_cast<unsigned>(resident_ctas));
      grid_stride_copy_kernel<<<ctas, kThreads, 0, stream>>>(in, out, n, span, row, flip);
      break;
    }
    case CopyKernel::memcpy2d:
      return cudaMemcpy2DAsync(dst, static_cast<std::size_t>(p.row_bytes), src,
                               static_cast<std::size_t>(p.row_bytes),
                               static_cast<std::size_t>(p.span_bytes),
                               static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice, stream);
  }
  return cudaGetLastError();
}

}  // namespace rkv
