#include "validate/buffer_coordinates.h"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

namespace rkv {

const char* to_string(BufferKind b) {
  switch (b) {
    case BufferKind::qkv:
      return "qkv";
    case BufferKind::query_out:
      return "query_out";
    case BufferKind::k_cache:
      return "key_cache";
    case BufferKind::v_cache:
      return "value_cache";
  }
  return "?";
}

CacheEntryRef locate_cache_element(const TensorPlan& p, std::int64_t e) {
  // Peel the paged dims off from the largest stride down; what remains is the dim in the row.
  // A dim of extent 1 is skipped: its stride may tie with another's and it is always index 0.
  const std::int64_t extent[3] = {p.num_blocks, p.block_size, p.num_kv_heads};
  std::array<std::pair<std::int64_t, int>, 3> dims{
      {{p.block_stride, 0}, {p.slot_stride, 1}, {p.head_stride, 2}}};
  std::sort(dims.begin(), dims.end(), [](auto a, auto b) { return a.first > b.first; });
  std::int64_t idx[3] = {0, 0, 0};
  for (const auto& [stride, which] : dims) {
    if (extent[which] <= 1 || stride <= 0) continue;
    idx[which] = e / stride;
    e -= idx[which] * stride;
  }
  return CacheEntryRef{idx[0], idx[1], idx[2], e};
}

std::string describe_byte(const TensorPlan& p, BufferKind buffer, std::int64_t byte) {
  switch (buffer) {
    case BufferKind::qkv: {
      const std::int64_t e = byte / static_cast<std::int64_t>(p.elem_bytes);
      const std::int64_t t = e / p.row_elems, col = e % p.row_elems;
      struct Region {
        const char* name;
        std::int64_t begin;
        int heads, dim;
      };
      const Region regions[] = {{"query", p.q_col, p.num_q_heads, p.q_head_size},
                                {"key", p.k_col, p.num_kv_heads, p.k_head_size},
                                {"value", p.v_col, p.num_kv_heads, p.v_head_size}};
      for (const Region& r : regions) {
        const std::int64_t rel = col - r.begin;
        if (rel >= 0 && rel < std::int64_t{r.heads} * r.dim)
          return fmt::format("{}[t={}, h={}, d={}]", r.name, t, rel / r.dim, rel % r.dim);
      }
      return fmt::format("qkv[t={}, col={}]", t, col);
    }
    case BufferKind::query_out: {
      const std::int64_t e = byte / static_cast<std::int64_t>(p.elem_bytes);
      const std::int64_t per_token = std::int64_t{p.num_q_heads} * p.q_head_size;
      return fmt::format("query_out[t={}, h={}, d={}]", e / per_token,
                         e % per_token / p.q_head_size, e % p.q_head_size);
    }
    case BufferKind::k_cache:
    case BufferKind::v_cache: {
      const std::int64_t e = byte / static_cast<std::int64_t>(p.cache_elem_bytes);
      const CacheEntryRef r = locate_cache_element(p, e);
      // Which view the row element belongs to: shared rows hold K at k_offset and V at v_offset.
      const bool shared = p.cache_tensors == 1;
      const bool is_key = shared ? (r.dim >= p.k_offset && r.dim < p.k_offset + p.k_head_size)
                                 : buffer == BufferKind::k_cache;
      const std::int64_t d = r.dim - (shared ? (is_key ? p.k_offset : p.v_offset) : 0);
      return fmt::format("{}[block={}, offset={}, head={}, d={}]",
                         is_key ? "key_cache" : "value_cache", r.block, r.offset, r.head, d);
    }
  }
  return "?";
}

}  // namespace rkv
