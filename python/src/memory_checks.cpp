// The memory checks of memory_checks.h: an exact overlap test for strided views, applied to every
// pair of arguments of which one is written, and the alignment the kernels' accesses need.
#include "memory_checks.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <tuple>
#include <utility>
#include <vector>

namespace rkv_ext {

namespace {

// The bytes a strided view can touch: runs of `width` bytes starting at base + sum(i_k * stride_k)
// for 0 <= i_k < count_k.
struct Footprint {
  const char* name = nullptr;
  bool written = false;
  std::int64_t base = 0, width = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (stride, count), bytes

  std::int64_t end() const {
    std::int64_t e = base + width;
    for (const auto& [stride, count] : dims)
      e += (count - 1) * stride;
    return e;
  }
};

Footprint footprint(const char* name, bool written, const void* data, std::int64_t width,
                    std::initializer_list<std::pair<std::int64_t, std::int64_t>> dims) {
  Footprint f;
  f.name = name;
  f.written = written;
  f.base = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(data));
  f.width = width;
  for (const auto& [stride, count] : dims)
    if (count > 1 && stride != 0) f.dims.emplace_back(stride, count);
  return f;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Whether two views share a byte. Exact: it searches for index differences m_k = i_k - j_k over the
// union of both views' strides, outermost first, keeping only the m_k that leave the remaining
// offset within reach of the inner dims; for nested strides (every layout here) that is at most
// three candidates a level. Views of one allocation that interleave without touching (q, k and v
// columns of one qkv tensor; K and V halves of a packed cache; K and V blocks of a
// [blocks, 2, ...] cache) are told apart from real overlaps. Past a work limit it answers "yes".
bool overlaps(const Footprint& a, const Footprint& b) {
  if (a.end() <= b.base || b.end() <= a.base) return false;
  std::vector<std::int64_t> strides;
  for (const auto* f : {&a, &b})
    for (const auto& d : f->dims)
      strides.push_back(d.first);
  std::sort(strides.begin(), strides.end(), std::greater<>());
  strides.erase(std::unique(strides.begin(), strides.end()), strides.end());
  const std::size_t n = strides.size();
  // count_a[k] / count_b[k]: each view's extent along strides[k] (1 where it has no such dim).
  std::vector<std::int64_t> count_a(n, 1), count_b(n, 1);
  for (std::size_t k = 0; k < n; ++k) {
    for (const auto& d : a.dims)
      if (d.first == strides[k]) count_a[k] *= d.second;  // repeated strides: a superset, safe
    for (const auto& d : b.dims)
      if (d.first == strides[k]) count_b[k] *= d.second;
  }
  // reach_a[k]: how far a's dims inside level k (k..n-1) can move forward; reach_b likewise back.
  std::vector<std::int64_t> reach_a(n + 1, 0), reach_b(n + 1, 0);
  for (std::size_t k = n; k-- > 0;) {
    reach_a[k] = reach_a[k + 1] + (count_a[k] - 1) * strides[k];
    reach_b[k] = reach_b[k + 1] + (count_b[k] - 1) * strides[k];
  }
  long budget = 100000;
  // r: b's element start minus a's, after the levels above k; overlap iff -b.width < r < a.width
  // once every level has been assigned.
  auto search = [&](auto&& self, std::size_t k, std::int64_t r) -> bool {
    if (--budget < 0) return true;
    if (k == n) return -b.width < r && r < a.width;
    const std::int64_t hi_r = a.width + reach_a[k + 1];  // r - m * s must lie in (lo_r, hi_r)
    const std::int64_t lo_r = -b.width - reach_b[k + 1];
    const std::int64_t s = strides[k];
    const std::int64_t m_lo = std::max(floor_div(r - hi_r, s) + 1, -(count_b[k] - 1));
    const std::int64_t m_hi = std::min(-floor_div(-(r - lo_r), s) - 1, count_a[k] - 1);
    for (std::int64_t m = m_lo; m <= m_hi; ++m)
      if (self(self, k + 1, r - m * s)) return true;
    return false;
  };
  return search(search, 0, b.base - a.base);
}

// The element sizes in bytes of q/k/v and of the cache.
std::int64_t elem_bytes(const rkv::RopeKvArgs& a) {
  return static_cast<std::int64_t>(rkv::dtype_bytes(a.dtype));
}
std::int64_t cache_elem_bytes(const rkv::RopeKvArgs& a) {
  return static_cast<std::int64_t>(rkv::cache_elem_bytes(a.cache_dtype, a.dtype));
}

}  // namespace

Error refuse_overlaps(const Inputs& in, const Prepared& p) {
  const rkv::RopeKvArgs& a = p.args;
  const bool caches = in.slot_mapping.given;
  const Tensor& cs = in.cos_sin_cache;
  // prepare() has checked that key has query's tokens and query_out query's shape.
  const std::int64_t rot = a.rot_dim;
  const std::int64_t e = elem_bytes(a);
  const std::int64_t ce = cache_elem_bytes(a);
  const auto head_fp = [&](const char* name, bool written, const rkv::HeadTensor& h,
                           std::int64_t tokens, std::int64_t heads, std::int64_t dim) {
    return footprint(name, written, h.data, dim * e,
                     {{h.token_stride * e, tokens}, {h.head_stride * e, heads}});
  };
  std::vector<Footprint> fps;
  fps.push_back(
      head_fp("query", !in.query_out.given, a.query, a.num_tokens, a.num_q_heads, a.q_head_size));
  if (in.query_out.given)
    fps.push_back(
        head_fp("query_out", true, a.query_out, a.num_tokens, a.num_q_heads, a.q_head_size));
  fps.push_back(head_fp("key", true, a.key, a.num_tokens, a.num_kv_heads, a.k_head_size));
  fps.push_back(footprint("positions", false, a.positions, a.num_tokens * 8, {}));
  fps.push_back(footprint("cos_sin_cache", false, a.cos_sin_cache,
                          rot * static_cast<std::int64_t>(cs.itemsize()),
                          {{a.cos_sin_stride * cs.itemsize(), a.max_position}}));
  if (caches) {
    fps.push_back(
        head_fp("value", false, a.value, a.num_cache_tokens, a.num_kv_heads, a.v_head_size));
    fps.push_back(footprint("slot_mapping", false, a.slot_mapping, a.num_cache_tokens * 8, {}));
    const auto cache_fp = [&](const char* name, const rkv::CacheTensor& c, std::int64_t dim) {
      return footprint(name, true, c.data, dim * ce,
                       {{c.block_stride * ce, a.num_blocks},
                        {c.slot_stride * ce, a.block_size},
                        {c.head_stride * ce, a.num_kv_heads}});
    };
    fps.push_back(cache_fp("key_cache", a.key_cache, a.k_head_size));
    fps.push_back(cache_fp("value_cache", a.value_cache, a.v_head_size));
    if (a.k_scale != nullptr) {
      fps.push_back(footprint("k_scale", false, a.k_scale, p.scale_count * 4, {}));
      fps.push_back(footprint("v_scale", false, a.v_scale, p.scale_count * 4, {}));
    }
  }
  if (a.num_tokens > 0)
    for (std::size_t i = 0; i < fps.size(); ++i)
      for (std::size_t j = i + 1; j < fps.size(); ++j)
        if ((fps[i].written || fps[j].written) && overlaps(fps[i], fps[j])) {
          const Footprint& w = fps[i].written ? fps[i] : fps[j];
          const Footprint& other = fps[i].written ? fps[j] : fps[i];
          return value_error(w.name, ": overlaps ", other.name, " in memory; ", w.name,
                             " is written, so it must not share memory with any other argument");
        }
  return {};
}

Error refuse_misaligned(const Inputs& in, const rkv::RopeKvArgs& a) {
  const bool caches = in.slot_mapping.given;
  const std::int64_t rot = a.rot_dim;
  const std::int64_t e = elem_bytes(a);
  const std::int64_t ce = cache_elem_bytes(a);
  if (a.num_tokens > 0 && rkv::rope_kv_vector_elems(a) == 0) {
    const auto misaligned = [](const void* ptr, std::int64_t bytes) {
      return reinterpret_cast<std::uintptr_t>(ptr) % static_cast<std::uint64_t>(bytes) != 0;
    };
    if (a.style == rkv::RopeStyle::neox && rot % 4 != 0)
      return value_error("cos_sin_cache: rot_dim = ", rot,
                         " must be a multiple of 4 for neox style");
    const std::tuple<const Tensor*, rkv::HeadTensor, std::int64_t> heads[] = {
        {&in.query, a.query, a.q_head_size},
        {&in.query_out, a.query_out, a.q_head_size},
        {&in.key, a.key, a.k_head_size},
        {&in.value, a.value, a.v_head_size}};
    for (const auto& [t, h, dim] : heads)
      if (h.data != nullptr && (misaligned(h.data, 2 * e) || h.token_stride % 2 != 0 ||
                                h.head_stride % 2 != 0 || dim % 2 != 0))
        return value_error(t->name,
                           ": its data pointer, strides and head size must allow aligned pairs ",
                           "of elements (pointer a multiple of ", 2 * e, " bytes, even strides)");
    if (caches)
      for (const auto& [t, c] :
           {std::pair{&in.key_cache, a.key_cache}, std::pair{&in.value_cache, a.value_cache}})
        if (misaligned(c.data, 2 * ce) || c.block_stride % 2 != 0 || c.slot_stride % 2 != 0 ||
            c.head_stride % 2 != 0)
          return value_error(t->name, ": its data pointer and strides must allow aligned pairs of ",
                             "elements (pointer a multiple of ", 2 * ce, " bytes, even strides)");
    return value_error(
        "cos_sin_cache: its data pointer and row stride must allow aligned reads of ",
        a.style == rkv::RopeStyle::neox ? 2 : 1, " entries");
  }
  return {};
}

}  // namespace rkv_ext
