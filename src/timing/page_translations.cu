#include <algorithm>

#include "timing/page_translations.h"

namespace rkv {
namespace {

// Page p of range r is read at its first byte inside the range: the range's own first byte for
// p = 0, the page's start after that.
__global__ void touch_pages_kernel(const TranslationList list, unsigned* sink) {
  unsigned acc = 0;
  for (int r = 0; r < list.count; ++r) {
    const auto first = reinterpret_cast<std::uintptr_t>(list.first[r]);
    const std::uintptr_t page0 = first & ~static_cast<std::uintptr_t>(kTranslationPage - 1);
    for (std::int64_t p = threadIdx.x; p < list.pages[r]; p += blockDim.x) {
      const std::uintptr_t at =
          p == 0 ? first : page0 + static_cast<std::uintptr_t>(p) * kTranslationPage;
      acc += __ldcg(reinterpret_cast<const unsigned char*>(at));
    }
  }
  // Never true (bytes summed over at most a few thousand pages), but the compiler cannot know:
  // the loads stay.
  if (acc == 0xffffffffu) *sink = acc;
}

}  // namespace

cudaError_t warm_translations(const std::vector<DeviceRange>& ranges, cudaStream_t stream) {
  const TranslationList list = translation_list(ranges);
  if (list.count == 0) return cudaSuccess;
  int device = 0, sms = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e != cudaSuccess) return e;
  // Four CTAs per SM, so that every SM (and its own TLB) almost surely runs one.
  touch_pages_kernel<<<std::max(1, 4 * sms), 128, 0, stream>>>(list, nullptr);
  return cudaGetLastError();
}

}  // namespace rkv
