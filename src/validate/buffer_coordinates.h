// Turns a byte offset in one of a case's buffers into the coordinates a person debugs with:
// "key[t=5, h=3, d=17]" or "key_cache[block=3, offset=7, head=2, d=100]".
#pragma once

#include <cstdint>
#include <string>

#include "plan/workload.h"

namespace rkv {

enum class BufferKind { qkv, query_out, k_cache, v_cache };
const char* to_string(BufferKind b);

std::string describe_byte(const TensorPlan& plan, BufferKind buffer, std::int64_t byte);

// For a cache allocation: which (block, offset, head) row an element belongs to and where it sits
// in the row.
struct CacheEntryRef {
  std::int64_t block = 0, offset = 0, head = 0;
  std::int64_t dim = 0;  // within the row: [0, row) where K and V may share the row
};
CacheEntryRef locate_cache_element(const TensorPlan& plan, std::int64_t element);

}  // namespace rkv
