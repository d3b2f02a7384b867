// Byte-for-byte comparison of two device buffers without copying them to the host: the count of
// differing bytes and the first one. A row window can be excluded (e.g. the key columns of qkv,
// which the unfused pair always writes back but the fused kernel may be told not to).
#pragma once

#include <cstdint>

namespace rkv {

struct ByteDiff {
  std::int64_t count = 0;
  std::int64_t first = -1;  // byte offset of the first difference, -1 when none
};

struct RowWindow {
  std::int64_t row_bytes = 0;  // 0: no window
  std::int64_t skip_begin = 0, skip_end = 0;
};

ByteDiff compare_device_bytes(const void* a, const void* b, std::int64_t bytes,
                              RowWindow skip = {});

}  // namespace rkv
