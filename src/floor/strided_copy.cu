#include "floor/strided_copy.h"

namespace rkv {
namespace {

constexpr int kThreads = 256;
// Each thread loads all of its vectors before it stores any: four 16-byte loads in flight a
// thread, what a tuned copy keeps, so the probe measures the shape and not a latency limit.
constexpr int kVectorsPerThread = 4;

__global__ void strided_copy_kernel(const uint4* src, uint4* dst, std::uint32_t vectors,
                                    std::uint32_t span_vectors, std::uint32_t row_vectors,
                                    std::uint32_t flip) {
  const std::uint32_t first = blockIdx.x * (kThreads * kVectorsPerThread) + threadIdx.x;
  uint4 v[kVectorsPerThread];
  std::uint64_t at[kVectorsPerThread];
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const std::uint32_t i = first + k * kThreads;
    at[k] = std::uint64_t{i / span_vectors} * row_vectors + i % span_vectors;
    if (i < vectors) v[k] = src[at[k]];
  }
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    if (first + k * kThreads >= vectors) break;
    dst[at[k]] = make_uint4(v[k].x ^ flip, v[k].y ^ flip, v[k].z ^ flip, v[k].w ^ flip);
  }
}

}  // namespace

cudaError_t launch_strided_copy(const void* src, void* dst, std::int64_t rows, CopyPattern p,
                                std::uint32_t flip, cudaStream_t stream) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(src) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
  if (!aligned || rows < 1 || p.span_bytes < 16 || p.span_bytes % 16 != 0 ||
      p.row_bytes % 16 != 0 || p.span_bytes > p.row_bytes ||
      rows > kMaxStridedCopyVectors / (p.span_bytes / 16))
    return cudaErrorInvalidValue;
  const std::int64_t vectors = rows * (p.span_bytes / 16);
  const std::int64_t per_block = std::int64_t{kThreads} * kVectorsPerThread;
  const auto blocks = static_cast<unsigned>((vectors + per_block - 1) / per_block);
  strided_copy_kernel<<<blocks, kThreads, 0, stream>>>(
      static_cast<const uint4*>(src), static_cast<uint4*>(dst), static_cast<std::uint32_t>(vectors),
      static_cast<std::uint32_t>(p.span_bytes / 16), static_cast<std::uint32_t>(p.row_bytes / 16),
      flip);
  return cudaGetLastError();
}

}  // namespace rkv
