// timing/page_translations.h, the host half: which pages the cold-mode touch kernel reads.
#include "timing/page_translations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace rkv {
namespace {

const void* at(std::uintptr_t address) {
  return reinterpret_cast<const void*>(address);
}

constexpr std::uintptr_t kPage = kTranslationPage;

TEST(TranslationList, CountsEveryPageARangeTouchesAndDropsEmptyRanges) {
  const std::uintptr_t base = 0x7f0000000000u;  // page-aligned, as cudaMalloc returns
  const TranslationList l = translation_list({
      {at(base), 1},                        // one byte: one page
      {nullptr, 4096},                      // dropped
      {at(base + 5), 0},                    // dropped
      {at(base + kPage - 1), 2},            // straddles a boundary: two pages
      {at(base + 3), 2 * kPage},            // misaligned by 3, two pages long: three pages
      {at(base + 4 * kPage), 5 * kPage},    // exactly five pages
      {at(base + 4 * kPage + 16), 1 << 20}  // inside one page
  });
  ASSERT_EQ(l.count, 5);
  const std::int64_t pages[] = {1, 2, 3, 5, 1};
  for (int i = 0; i < l.count; ++i)
    EXPECT_EQ(l.pages[i], pages[i]) << i;
  EXPECT_EQ(l.first[1], static_cast<const unsigned char*>(at(base + kPage - 1)));
  EXPECT_EQ(l.first[2], static_cast<const unsigned char*>(at(base + 3)));
}

TEST(TranslationList, RefusesMoreRangesThanTheKernelTakes) {
  std::vector<DeviceRange> ranges(kMaxTranslationRanges, DeviceRange{at(kPage), 1});
  EXPECT_EQ(translation_list(ranges).count, kMaxTranslationRanges);
  ranges.push_back({at(kPage), 1});
  EXPECT_THROW(translation_list(ranges), std::invalid_argument);
  // Empty ranges do not count against the limit.
  ranges.back() = {nullptr, 0};
  EXPECT_EQ(translation_list(ranges).count, kMaxTranslationRanges);
}

}  // namespace
}  // namespace rkv
