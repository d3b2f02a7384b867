// The copy kernels `floor` times a pattern with, by name. More than one, because one copy kernel's
// rate is that kernel's: on the H200 the first probe (tile4) reached only 96-97 % of cudaMemcpy on
// contiguous rows, so a shape's ceiling is the fastest of several ways to copy it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rkv {

enum class CopyKernel {
  tile4,        // one CTA a tile of 256 threads x 4 vectors, every load before any store
  tile8,        // the same with 8 vectors a thread: twice the bytes in flight a thread
  grid_stride,  // one resident wave of CTAs looping over tiles of 4 vectors a thread, as the
                // fused kernel's strided grid walks its units
  memcpy2d,     // cudaMemcpy2DAsync: NVIDIA's own pitched copy; out of place only (it cannot XOR)
};

// Every kernel in the order the probe times them, and their report names ("tile4", ...).
std::vector<CopyKernel> all_copy_kernels();
std::string copy_kernel_name(CopyKernel k);

// Whether `k` can make the copy asked: memcpy2d copies out of place with no flip only.
bool copy_kernel_applies(CopyKernel k, bool in_place, std::uint32_t flip);

}  // namespace rkv
