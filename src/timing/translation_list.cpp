#include <stdexcept>
#include <string>

#include "timing/page_translations.h"

namespace rkv {

TranslationList translation_list(const std::vector<DeviceRange>& ranges) {
  TranslationList list;
  for (const DeviceRange& r : ranges) {
    if (r.data == nullptr || r.bytes <= 0) continue;
    if (list.count == kMaxTranslationRanges)
      throw std::invalid_argument("warm_translations: more than " +
                                  std::to_string(kMaxTranslationRanges) + " ranges");
    const auto start = reinterpret_cast<std::uintptr_t>(r.data);
    const std::uintptr_t page0 = start & ~static_cast<std::uintptr_t>(kTranslationPage - 1);
    const std::uintptr_t end = start + static_cast<std::uintptr_t>(r.bytes);  // one past
    // The first byte of the range, then every page start after it up to the last byte.
    list.first[list.count] = static_cast<const unsigned char*>(r.data);
    list.pages[list.count] = static_cast<std::int64_t>((end - 1 - page0) / kTranslationPage) + 1;
    ++list.count;
  }
  return list;
}

}  // namespace rkv
