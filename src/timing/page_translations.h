// Cold mode's last step before the timed window: put the page translations of the variant's
// buffers back into the GPU's TLBs, which the L2 flush's 2x-L2 read pass pushed out.
//
// Why: `ncu --cache-control all` (the reference for cold mode) empties the caches but leaves the
// translations of the pages the kernel used last, while our read flush also replaces them with
// the flush buffer's. A kernel's first access to each 2 MiB page then waits for a page walk
// inside the window, about constant in N: 0.2-0.3 us at 2048 tokens on an H200 (results/NOTES.md,
// "cold vs ncu at 2048 tokens"). So a kernel of a few CTAs per SM loads one byte of every page
// of the buffers from every SM; L2 gains one line per page (a few hundred lines at most, against
// a case's megabytes), and every data line the timed kernel reads still comes from DRAM.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace rkv {

// A span of device memory: what a launch reads or writes.
struct DeviceRange {
  const void* data = nullptr;
  std::int64_t bytes = 0;
};

inline constexpr std::int64_t kTranslationPage = std::int64_t{1} << 21;  // 2 MiB: cudaMalloc's
inline constexpr int kMaxTranslationRanges = 16;

// The ranges a touch kernel walks: empty and null ranges dropped, each as its first byte and
// its page count (whole 2 MiB pages from the range's page-aligned start). Throws
// std::invalid_argument beyond kMaxTranslationRanges ranges. Host-only, so it is unit-tested.
struct TranslationList {
  const unsigned char* first[kMaxTranslationRanges] = {};
  std::int64_t pages[kMaxTranslationRanges] = {};
  int count = 0;
};
TranslationList translation_list(const std::vector<DeviceRange>& ranges);

// Queues the touch kernel on `stream` (nothing when `ranges` has no bytes).
cudaError_t warm_translations(const std::vector<DeviceRange>& ranges, cudaStream_t stream);

}  // namespace rkv
