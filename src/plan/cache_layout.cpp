#include "plan/cache_layout.h"

#include <algorithm>

namespace rkv {
namespace {

char letter(PagedDim d) {
  return d == PagedDim::block ? 'b' : d == PagedDim::slot ? 's' : 'h';
}

struct Preset {
  const char* name;
  CacheLayout layout;
};

const Preset kPresets[] = {
    {"nhd", {{PagedDim::block, PagedDim::slot, PagedDim::head}, false}},
    {"hnd", {{PagedDim::block, PagedDim::head, PagedDim::slot}, false}},
    {"packed_nhd", {{PagedDim::block, PagedDim::slot, PagedDim::head}, true}},
    {"packed_hnd", {{PagedDim::block, PagedDim::head, PagedDim::slot}, true}},
};

}  // namespace

std::string CacheLayout::name() const {
  for (const Preset& p : kPresets)
    if (p.layout == *this) return p.name;
  std::string s = packed ? "packed_" : "";
  for (PagedDim d : order)
    s += letter(d);
  return s;
}

std::optional<CacheLayout> CacheLayout::parse(const std::string& name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return p.layout;
  CacheLayout out;
  std::string letters = name;
  const std::string prefix = "packed_";
  if (letters.rfind(prefix, 0) == 0) {
    out.packed = true;
    letters = letters.substr(prefix.size());
  }
  if (letters.size() != 3) return std::nullopt;
  for (int i = 0; i < 3; ++i) {
    switch (letters[i]) {
      case 'b':
        out.order[i] = PagedDim::block;
        break;
      case 's':
        out.order[i] = PagedDim::slot;
        break;
      case 'h':
        out.order[i] = PagedDim::head;
        break;
      default:
        return std::nullopt;
    }
  }
  std::string sorted = letters;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != "bhs") return std::nullopt;  // each of b, s, h exactly once
  return out;
}

std::vector<std::string> CacheLayout::preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets)
    names.emplace_back(p.name);
  return names;
}

CacheGeometry make_cache_geometry(const CacheLayout& layout, std::int64_t num_blocks,
                                  std::int32_t block_size, std::int32_t num_kv_heads,
                                  std::int32_t k_head_size, std::int32_t v_head_size) {
  CacheGeometry g;
  g.num_blocks = num_blocks;
  g.block_size = block_size;
  g.num_kv_heads = num_kv_heads;
  g.k_head_size = k_head_size;
  g.v_head_size = v_head_size;
  g.layout = layout;
  g.num_tensors = layout.packed ? 1 : 2;
  // Separate K and V tensors share strides, so they need the same row length; packed rows hold
  // K then V.
  const std::int64_t row = layout.packed ? std::int64_t{k_head_size} + v_head_size
                                         : std::int64_t{std::max(k_head_size, v_head_size)};
  g.value_offset = layout.packed ? k_head_size : 0;
  // Walk the order inner->outer, giving each paged dim the product of the extents inside it.
  std::int64_t stride = row;
  for (int i = 2; i >= 0; --i) {
    switch (layout.order[i]) {
      case PagedDim::block:
        g.block_stride = stride;
        stride *= num_blocks;
        break;
      case PagedDim::slot:
        g.slot_stride = stride;
        stride *= block_size;
        break;
      case PagedDim::head:
        g.head_stride = stride;
        stride *= num_kv_heads;
        break;
    }
  }
  g.elements_per_tensor = stride;
  return g;
}

CacheTensor CacheGeometry::key_view(void* k_base) const {
  return CacheTensor{k_base, block_stride, slot_stride, head_stride};
}

CacheTensor CacheGeometry::value_view(void* v_base, std::size_t elem_bytes) const {
  auto* base =
      static_cast<unsigned char*>(v_base) + value_offset * static_cast<std::int64_t>(elem_bytes);
  return CacheTensor{base, block_stride, slot_stride, head_stride};
}

}  // namespace rkv
