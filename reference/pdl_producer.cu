#include "pdl_producer.h"

#include <cstdint>

namespace rkv {
namespace {

constexpr int kProducerThreads = 256;
constexpr unsigned kMaxProducerCtas = 1024;

// 16 bytes per access where both pointers allow it, then the odd tail byte by byte.
__global__ void __launch_bounds__(kProducerThreads)
    pdl_producer_kernel(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                        std::uint8_t fill, bool wide) {
  // First: nothing a dependent may read is written by this kernel before it completes (the
  // dependent's griddepcontrol.wait covers that), so it may be scheduled right away.
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
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
                                cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr) return cudaErrorInvalidValue;
  const bool wide = reinterpret_cast<std::uintptr_t>(dst) % 16 == 0 &&
                    reinterpret_cast<std::uintptr_t>(src) % 16 == 0;
  const std::size_t units = wide ? bytes / 16 + 1 : bytes;
  std::size_t ctas = (units + kProducerThreads - 1) / kProducerThreads;
  if (ctas > kMaxProducerCtas) ctas = kMaxProducerCtas;  // then each thread strides
  pdl_producer_kernel<<<static_cast<unsigned>(ctas), kProducerThreads, 0, stream>>>(
      static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes, fill, wide);
  return cudaGetLastError();
}

}  // namespace rkv
