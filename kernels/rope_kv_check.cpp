#include "rope_kv_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "work_plan.h"

namespace rkv {
namespace {

// Messages are built without iostreams: the checker runs inside Python extensions too, where an
// ostream linked into the module crashed in its locale facets once torch had set up the process
// (H200, results/h200/wave2/python-gdb.txt).
void append(std::string& out, const char* s) {
  out += s;
}
template <typename T>  // numbers only
std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>>
append(std::string& out, T v) {
  if constexpr (std::is_integral_v<T>) {
    out += std::to_string(v);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    out += buf;
  }
}

template <typename... Parts>
std::string line(const Parts&... parts) {
  std::string out;
  (append(out, parts), ...);
  return out;
}

// Rows of a [T, H, D] view must not overlap each other (the outer strides cover the inner extent).
std::string check_head_tensor(const char* name, const HeadTensor& v, std::int64_t tokens, int heads,
                              int dim) {
  if (v.data == nullptr) return line(name, " is null");
  if (heads > 1 && v.head_stride < dim)
    return line(name, ".head_stride = ", v.head_stride, " overlaps rows of ", dim, " elements");
  std::int64_t token_extent = dim;
  if (heads > 1 && (__builtin_mul_overflow(std::int64_t{heads - 1}, v.head_stride, &token_extent) ||
                    __builtin_add_overflow(token_extent, std::int64_t{dim}, &token_extent)))
    return line(name, ".head_stride = ", v.head_stride, " is too large to index");
  if (tokens > 1 && v.token_stride < token_extent)
    return line(name, ".token_stride = ", v.token_stride, " overlaps the ", heads,
                " heads of a token");
  return "";
}

// Distinct (block, slot, head) entries must not overlap: sorted by stride, each paged dim's
// stride must cover the extent of everything inside it.
std::string check_cache_tensor(const char* name, const CacheTensor& c, const RopeKvArgs& a,
                               int dim) {
  if (c.data == nullptr) return line(name, " is null");
  std::array<std::pair<std::int64_t, std::int64_t>, 3> dims{{{c.block_stride, a.num_blocks},
                                                             {c.slot_stride, a.block_size},
                                                             {c.head_stride, a.num_kv_heads}}};
  std::sort(dims.begin(), dims.end());
  std::int64_t covered = dim;
  for (const auto& [stride, extent] : dims) {
    if (extent <= 1) continue;
    if (stride < covered)
      return line(name, " strides (block ", c.block_stride, ", slot ", c.slot_stride, ", head ",
                  c.head_stride, ") make distinct entries overlap");
    std::int64_t span;
    if (__builtin_mul_overflow(stride, extent - 1, &span) ||
        __builtin_add_overflow(span, covered, &covered))
      return line(name, " strides (block ", c.block_stride, ", slot ", c.slot_stride, ", head ",
                  c.head_stride, ") are too large to index");
  }
  return "";
}

std::string check_scale(const char* name, const float* s, int count) {
  if (s == nullptr) return line(name, " is missing (an fp8 cache needs it)");
  for (int i = 0; i < count; ++i)
    if (!(std::isfinite(s[i]) && s[i] > 0.f))
      return line(name, "[", i, "] = ", s[i], " must be finite and > 0");
  return "";
}

// Where a strided view's elements can lie, in bytes: within [begin, end), and inside windows of
// `width` bytes that repeat every `period` bytes (period 0: one window, the whole span).
struct Footprint {
  std::uintptr_t begin = 0, end = 0;
  std::int64_t period = 0, width = 0;
};

Footprint footprint(const HeadTensor& v, std::int64_t tokens, int heads, int dim,
                    std::size_t elem) {
  const auto e = static_cast<std::int64_t>(elem);
  Footprint f;
  f.begin = reinterpret_cast<std::uintptr_t>(v.data);
  f.width = (std::int64_t{heads - 1} * v.head_stride + dim) * e;
  f.end = f.begin + static_cast<std::uintptr_t>((tokens - 1) * v.token_stride * e + f.width);
  f.period = tokens > 1 ? v.token_stride * e : 0;
  return f;
}

Footprint footprint(const CacheTensor& c, const RopeKvArgs& a, int dim, std::size_t elem) {
  const auto e = static_cast<std::int64_t>(elem);
  const std::pair<std::int64_t, std::int64_t> dims[] = {{c.block_stride, a.num_blocks},
                                                        {c.slot_stride, a.block_size},
                                                        {c.head_stride, a.num_kv_heads}};
  Footprint f;
  f.begin = reinterpret_cast<std::uintptr_t>(c.data);
  std::int64_t last = dim, period = 0;
  for (const auto& [stride, extent] : dims) {
    if (extent <= 1) continue;
    last += (extent - 1) * stride;
    period = period == 0 ? stride : std::min(period, stride);
  }
  for (const auto& [stride, extent] : dims)  // the window repeats only if every stride does
    if (extent > 1 && period > 0 && stride % period != 0) period = 0;
  f.end = f.begin + static_cast<std::uintptr_t>(last * e);
  f.period = period * e;
  f.width = f.period > 0 ? dim * e : last * e;
  return f;
}

// Exact for views that repeat with the same period (q/k/v columns of one qkv tensor, K and V
// halves of a packed cache); otherwise any shared span counts as an overlap.
bool overlaps(const Footprint& a, const Footprint& b) {
  if (a.end <= b.begin || b.end <= a.begin) return false;
  if (a.period == 0 || a.period != b.period || a.width > a.period || b.width > b.period)
    return true;
  const auto delta = static_cast<std::int64_t>(b.begin - a.begin);
  const std::int64_t d = ((delta % a.period) + a.period) % a.period;
  return d < a.width || d + b.width > a.period;
}

// One contiguous array of `bytes` bytes.
Footprint footprint(const void* data, std::int64_t bytes) {
  Footprint f;
  f.begin = reinterpret_cast<std::uintptr_t>(data);
  f.end = f.begin + static_cast<std::uintptr_t>(bytes);
  f.width = bytes;
  return f;
}

// Every tensor the operation is given, as the bytes it may touch; the first overlapping pair.
// Called once the views' own strides and the cache sizes have been checked.
std::string check_overlaps(const RopeKvArgs& a) {
  struct NamedView {
    const char* name;
    Footprint f;
  };
  const std::size_t elem = dtype_bytes(a.dtype);
  std::vector<NamedView> views = {
      {"query", footprint(a.query, a.num_tokens, a.num_q_heads, a.q_head_size, elem)},
      {"key", footprint(a.key, a.num_tokens, a.num_kv_heads, a.k_head_size, elem)},
      {"positions", footprint(a.positions, a.num_tokens * 8)}};
  if (a.query_out.data != nullptr)
    views.push_back(
        {"query_out", footprint(a.query_out, a.num_tokens, a.num_q_heads, a.q_head_size, elem)});
  const std::int64_t cs_elem = a.cos_sin_fp32 ? 4 : static_cast<std::int64_t>(elem);
  views.push_back({"cos_sin_cache",
                   footprint(a.cos_sin_cache,
                             ((a.max_position - 1) * a.cos_sin_stride + a.rot_dim) * cs_elem)});
  if (writes_cache(a)) {
    const std::size_t ce = cache_elem_bytes(a.cache_dtype, a.dtype);
    views.push_back(
        {"value", footprint(a.value, a.num_cache_tokens, a.num_kv_heads, a.v_head_size, elem)});
    views.push_back({"slot_mapping", footprint(a.slot_mapping, a.num_cache_tokens * 8)});
    views.push_back({"key_cache", footprint(a.key_cache, a, a.k_head_size, ce)});
    views.push_back({"value_cache", footprint(a.value_cache, a, a.v_head_size, ce)});
    if (a.cache_dtype != CacheDType::auto_) {
      const std::int64_t scale_bytes = (a.scale_head_stride == 0 ? 1 : a.num_kv_heads) * 4;
      views.push_back({"k_scale", footprint(a.k_scale, scale_bytes)});
      if (a.v_scale != a.k_scale) views.push_back({"v_scale", footprint(a.v_scale, scale_bytes)});
    }
  }
  for (std::size_t i = 0; i < views.size(); ++i)
    for (std::size_t j = i + 1; j < views.size(); ++j)
      if (overlaps(views[i].f, views[j].f))
        return line(views[i].name, " and ", views[j].name, " views share memory");
  return "";
}

}  // namespace

std::string check_rope_kv_inputs(const RopeKvArgs& a, const HostSideInputs& host) {
  if (a.num_tokens < 0) return line("num_tokens = ", a.num_tokens, " is negative");
  if (a.num_tokens > 0x7fffffffLL)
    return line("num_tokens = ", a.num_tokens, " is 2^31 or more (token indices are 32-bit)");
  if (a.num_cache_tokens < 0 || a.num_cache_tokens > a.num_tokens)
    return line("num_cache_tokens = ", a.num_cache_tokens,
                " must lie in [0, num_tokens = ", a.num_tokens, "]");
  if (a.num_q_heads <= 0 || a.num_kv_heads <= 0)
    return line("heads ", a.num_q_heads, "x", a.num_kv_heads, " must be positive");
  if (a.num_q_heads % a.num_kv_heads != 0)
    return line("num_q_heads = ", a.num_q_heads,
                " is not a multiple of num_kv_heads = ", a.num_kv_heads);
  if (a.q_head_size <= 0 || a.k_head_size <= 0 || a.v_head_size <= 0)
    return line("head sizes ", a.q_head_size, "/", a.k_head_size, "/", a.v_head_size,
                " must be positive");
  if (a.rot_dim <= 0 || a.rot_dim % 2 != 0)
    return line("rot_dim = ", a.rot_dim, " must be even and positive");
  if (a.rot_dim > a.k_head_size || a.q_rot_offset < 0 ||
      std::int64_t{a.q_rot_offset} + a.rot_dim > a.q_head_size)
    return line("rot_dim = ", a.rot_dim, " (q offset ", a.q_rot_offset,
                ") does not fit head sizes q ", a.q_head_size, ", k ", a.k_head_size);
  if (a.scale_head_stride != 0 && a.scale_head_stride != 1)
    return line("scale_head_stride = ", a.scale_head_stride,
                " must be 0 (one scale) or 1 (one per KV head)");
  if (a.cos_sin_cache == nullptr || a.max_position <= 0)
    return line("cos_sin_cache is missing or has max_position = ", a.max_position);
  if (a.cos_sin_stride < a.rot_dim)
    return line("cos_sin_stride = ", a.cos_sin_stride, " is shorter than rot_dim = ", a.rot_dim);
  if (a.num_tokens > 0 && (a.positions == nullptr || host.positions == nullptr))
    return "positions are missing";
  for (std::int64_t t = 0; t < a.num_tokens; ++t)
    if (host.positions[t] < 0 || host.positions[t] >= a.max_position)
      return line("positions[", t, "] = ", host.positions[t], " is outside the cos/sin cache [0, ",
                  a.max_position, ")");

  std::string e = check_head_tensor("query", a.query, a.num_tokens, a.num_q_heads, a.q_head_size);
  if (e.empty() && a.query_out.data != nullptr)
    e = check_head_tensor("query_out", a.query_out, a.num_tokens, a.num_q_heads, a.q_head_size);
  if (e.empty()) e = check_head_tensor("key", a.key, a.num_tokens, a.num_kv_heads, a.k_head_size);
  if (!e.empty()) return e;
  if (a.slot_mapping != nullptr) {
    if (host.slot_mapping == nullptr) return "slot_mapping has no host copy to check";
    if (a.block_size <= 0 || a.num_blocks <= 0)
      return line("cache of ", a.num_blocks, " blocks of ", a.block_size, " slots is empty");
    // The fused kernel splits slots into (block, offset) in 32 bits.
    if (a.num_blocks > 0x7fffffffLL / a.block_size)
      return line("cache of ", a.num_blocks, " blocks of ", a.block_size, " slots has ",
                  a.num_blocks * a.block_size, " slots; at most 2^31 - 1 are supported");
    e = check_head_tensor("value", a.value, a.num_cache_tokens, a.num_kv_heads, a.v_head_size);
    if (e.empty()) e = check_cache_tensor("key_cache", a.key_cache, a, a.k_head_size);
    if (e.empty()) e = check_cache_tensor("value_cache", a.value_cache, a, a.v_head_size);
    if (!e.empty()) return e;
    const std::int64_t slots = a.num_blocks * a.block_size;
    std::unordered_set<std::int64_t> seen;
    seen.reserve(static_cast<std::size_t>(a.num_cache_tokens));
    for (std::int64_t t = 0; t < a.num_cache_tokens; ++t) {
      const std::int64_t s = host.slot_mapping[t];
      if (s < -1 || s >= slots)
        return line("slot_mapping[", t, "] = ", s, " is outside [-1, ", slots, ")");
      if (s >= 0 && !seen.insert(s).second)
        return line("slot_mapping[", t, "] = ", s, " repeats an earlier token's slot");
    }
    if (a.cache_dtype != CacheDType::auto_) {
      const int n = a.scale_head_stride == 0 ? 1 : a.num_kv_heads;
      e = check_scale("k_scale", host.k_scale, n);
      if (e.empty()) e = check_scale("v_scale", host.v_scale, n);
      if (!e.empty()) return e;
    }
  }
  if (rope_kv_vector_elems(a) == 0)
    return line("no supported access width: head sizes ", a.q_head_size, "/", a.k_head_size, "/",
                a.v_head_size, ", rot_dim ", a.rot_dim,
                " and the strides/pointers must allow 4-byte pair-aligned accesses");
  // Whatever the launchers refuse is refused here too (with their reason), so a case this check
  // passes always launches; it also bounds every extent the overlap test below computes.
  if (const char* why = check_launch_args(a)) return line("launch arguments refused: ", why);
  // Any two tensors the operation is given must not share memory (docs/design.md): a written
  // view overlapping anything would race with or corrupt it, and an overlap of two inputs is
  // refused too, being a binding mistake in practice. The one exception is k_scale and v_scale
  // being one and the same tensor, which engines do when K and V share a scale.
  if (a.num_tokens > 0) {
    e = check_overlaps(a);
    if (!e.empty()) return e;
  }
  return "";
}

}  // namespace rkv
