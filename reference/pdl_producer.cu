#include "pdl_producer.h"

#include <algorithm>
#include <cstdint>

namespace rkv {
namespace {

constexpr int kProducerThreads = 256;
constexpr unsigned kMaxProducerCtas = 1024;
// A reading producer runs this many CTAs a SM at least: 4 loads of 16 bytes in flight per thread
// (about 4 MiB on an H200) keep DRAM busy, and 512 threads a SM leave room for a PDL consumer's
// CTAs to start beside it, as they would beside a projection's GEMV.
constexpr int kReadCtasPerSm = 2;
constexpr int kReadUnroll = 4;

// Streams `n16` 16-byte words through L2 (ld.global.cg) and returns their XOR. Each thread has
// kReadUnroll independent loads in flight per step; each load of a warp is coalesced.
__device__ unsigned xor_of_weights(const uint4* words, std::size_t n16) {
  const std::size_t threads = std::size_t{gridDim.x} * blockDim.x;
  unsigned x = 0;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n16;
       i += threads * kReadUnroll) {
    uint4 w[kReadUnroll];
#pragma unroll
    for (int j = 0; j < kReadUnroll; ++j)
      w[j] = i + j * threads < n16 ? __ldcg(words + i + j * threads) : uint4{};
#pragma unroll
    for (int j = 0; j < kReadUnroll; ++j)
      x ^= w[j].x ^ w[j].y ^ w[j].z ^ w[j].w;
  }
  return x;
}

// 16 bytes per access where both pointers allow it, then the odd tail byte by byte.
__global__ void __launch_bounds__(kProducerThreads)
    pdl_producer_kernel(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                        std::uint8_t fill, bool wide, ProducerRead read) {
  // First: nothing a dependent may read is written by this kernel before it completes (the
  // dependent's griddepcontrol.wait covers that), so it may be scheduled right away.
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  if (read.bytes > 0) {
    const unsigned x = xor_of_weights(static_cast<const uint4*>(read.weights), read.bytes / 16);
    if (x == 0x9e3779b9u) *read.sink = x;  // never, with zeroed weights; keeps the loads
  }
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  const std::size_t first = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  std::size_t done = 0;
  if (wide) {
    const std::size_t n16 = bytes / 16;
    uint4 pattern;
    pattern.x = pattern.y = pattern.z = pattern.w = 0x01010101u * fill;
    for (std::size_t i = first; i < n16; i += stride)
      reinterpret_cast<uint4*>(dst)[i] =
          src != nullptr ? reinterpret_cast<const uint4*>(src)[i] : pattern;
    done = n16 * 16;
  }
  for (std::size_t i = done + first; i < bytes; i += stride)
    dst[i] = src != nullptr ? src[i] : fill;
}

}  // namespace

cudaError_t launch_pdl_producer(void* dst, const void* src, std::size_t bytes, std::uint8_t fill,
                                cudaStream_t stream, const ProducerRead& read) {
  const bool reads = read.weights != nullptr && read.bytes > 0;
  if (bytes == 0 && !reads) return cudaSuccess;
  if (dst == nullptr && bytes > 0) return cudaErrorInvalidValue;
  if (reads && (read.sink == nullptr || read.bytes % 16 != 0 ||
                reinterpret_cast<std::uintptr_t>(read.weights) % 16 != 0))
    return cudaErrorInvalidValue;
  const bool wide = reinterpret_cast<std::uintptr_t>(dst) % 16 == 0 &&
                    reinterpret_cast<std::uintptr_t>(src) % 16 == 0;
  const std::size_t units = wide ? bytes / 16 + 1 : bytes;
  std::size_t ctas = (units + kProducerThreads - 1) / kProducerThreads;
  if (reads) {
    int device = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    ctas = std::max<std::size_t>(ctas, std::size_t(sms) * kReadCtasPerSm);
  }
  if (ctas > kMaxProducerCtas) ctas = kMaxProducerCtas;  // then each thread strides
  ProducerRead kernel_read = reads ? read : ProducerRead{};
  pdl_producer_kernel<<<static_cast<unsigned>(ctas), kProducerThreads, 0, stream>>>(
      static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes, fill, wide,
      kernel_read);
  return cudaGetLastError();
}

}  // namespace rkv
