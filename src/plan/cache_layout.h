// CacheLayout: how the paged KV cache is laid out in memory, as a stride preset.
//
// A layout is an order of the three paged dims (block, slot-in-block, head) from outermost to
// innermost, with the head dim `d` always innermost, and K and V either in two tensors or packed
// into one tensor whose last dim is 2*D (K in [..., :D], V in [..., D:]). The named presets:
//   nhd         K, V: [num_blocks, block_size, Hkv, D]        (flash layout)
//   hnd         K, V: [num_blocks, Hkv, block_size, D]
//   packed_nhd  KV:   [num_blocks, block_size, Hkv, 2*D]      (vLLM's current default order)
//   packed_hnd  KV:   [num_blocks, Hkv, block_size, 2*D]
// Any other order is named by its letters outer->inner, e.g. `hbs` or `packed_sbh`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rope_kv.h"

namespace rkv {

enum class PagedDim : std::uint8_t { block, slot, head };

struct CacheLayout {
  std::array<PagedDim, 3> order{PagedDim::block, PagedDim::slot, PagedDim::head};  // outer->inner
  bool packed = false;

  std::string name() const;  // preset name when one matches, else e.g. "packed_hbs"
  bool operator==(const CacheLayout& o) const { return order == o.order && packed == o.packed; }
  bool operator!=(const CacheLayout& o) const { return !(*this == o); }

  static std::optional<CacheLayout> parse(const std::string& name);
  static std::vector<std::string> preset_names();
};

// The element strides and sizes of one cache allocation for a layout. Both views index the same
// allocation when packed (value_offset = D), two allocations of `elements_per_tensor` otherwise.
struct CacheGeometry {
  std::int64_t num_blocks = 0;
  std::int32_t block_size = 0;
  std::int32_t num_kv_heads = 0;
  std::int32_t k_head_size = 0;
  std::int32_t v_head_size = 0;
  CacheLayout layout;

  std::int64_t block_stride = 0, slot_stride = 0, head_stride = 0;
  std::int64_t value_offset = 0;         // packed: V starts this many elements after K
  std::int64_t elements_per_tensor = 0;  // one allocation (packed: the whole K|V tensor)
  int num_tensors = 2;                   // 1 when packed

  // Views whose `data` is base + offset (elements of the cache dtype, scaled by elem_bytes).
  CacheTensor key_view(void* k_base) const;
  CacheTensor value_view(void* v_base, std::size_t elem_bytes) const;
};

CacheGeometry make_cache_geometry(const CacheLayout& layout, std::int64_t num_blocks,
                                  std::int32_t block_size, std::int32_t num_kv_heads,
                                  std::int32_t k_head_size, std::int32_t v_head_size);

}  // namespace rkv
