// The copies `floor` times: the first span bytes of every row from one buffer to the same place in
// another (or in place), with any of the copy kernels of copy_kernel.h: plain bandwidth kernels
// with nothing to compute, so their time is what the access shape alone costs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "floor/copy_kernel.h"
#include "floor/copy_pattern.h"

namespace rkv {

// The most 16-byte vectors, rows * SPAN / 16, one launch copies: the kernels count them in 32
// bits (addresses are 64-bit).
inline constexpr std::int64_t kMaxStridedCopyVectors = (std::int64_t{1} << 31) - 1;

// Queues one pass over `rows` rows of `p` on `stream` with kernel `k`: every 32-bit word of each
// span of `src` is XORed with `flip` and stored at the same offset of `dst`, which may be `src`
// (in place; a non-zero flip then makes every store change memory, as a rotation does). Both
// pointers 16-byte aligned. Returns the launch's error (cudaErrorInvalidValue for a bad argument,
// memcpy2d asked to work in place or to flip included). `resident_ctas`: grid_stride's one wave
// (grid_stride_resident_ctas); <= 0 asks the device at the launch, which a timed launch must not
// (the queries would sit between its events).
cudaError_t launch_strided_copy(const void* src, void* dst, std::int64_t rows, CopyPattern p,
                                std::uint32_t flip, cudaStream_t stream,
                                CopyKernel k = CopyKernel::tile4, int resident_ctas = 0);

// The CTAs of one resident wave of the grid_stride kernel on the current device.
cudaError_t grid_stride_resident_ctas(int* ctas);

}  // namespace rkv
