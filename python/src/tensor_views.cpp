// The per-tensor shape, stride and dtype checks of tensor_views.h.
#include "tensor_views.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>

namespace rkv_ext {

Error require_given(const Tensor& t, const char* why) {
  if (!t.given) return type_error(t.name, ": expected a CUDA tensor (", why, "), got None");
  return {};
}

// The innermost dim must be contiguous: the kernels move 4-16 byte chunks along it.
Error require_inner_contiguous(const Tensor& t, const char* what) {
  if (t.ndim() > 0 && t.shape.back() > 1 && t.strides.back() != 1)
    return value_error(t.name, ": expected the innermost (", what,
                       ") dim to be contiguous (stride 1), got strides ", shape_text(t.strides),
                       " for shape ", shape_text(t.shape));
  return {};
}

Error head_view(const Tensor& t, std::int64_t head_size, const char* expected, Heads& h) {
  if (t.ndim() == 3) {
    h = {t.shape[0], t.shape[1], t.shape[2], {t.data, t.strides[0], t.strides[1]}};
    if (head_size > 0 && h.dim != head_size)
      return value_error(t.name, ": expected head_size = ", head_size,
                         " in the last dim, got shape ", shape_text(t.shape));
  } else if (t.ndim() == 2) {
    if (head_size <= 0)
      return value_error(t.name,
                         ": a 2-D tensor [num_tokens, num_heads * head_size] needs head_size=; ",
                         "got shape ", shape_text(t.shape));
    if (t.shape[1] % head_size != 0)
      return value_error(t.name, ": last dim ", t.shape[1],
                         " is not a multiple of head_size = ", head_size);
    h = {t.shape[0], t.shape[1] / head_size, head_size, {t.data, t.strides[0], head_size}};
  } else {
    return value_error(t.name, ": expected ", expected, ", got shape ", shape_text(t.shape));
  }
  // Zero heads would divide by zero below (query's heads per key head), a zero head_size would
  // launch on nothing; the launch arguments hold both as int32.
  if (h.heads <= 0 || h.dim <= 0 || h.heads > INT32_MAX || h.dim > INT32_MAX)
    return value_error(
        t.name, ": expected 1 to 2^31 - 1 heads of head_size 1 to 2^31 - 1, got shape ",
        shape_text(t.shape), t.ndim() == 2 ? cat(" with head_size = ", head_size) : "");
  RKV_TRY(require_inner_contiguous(t, "head_size"));
  // Distinct rows must not overlap, as check_rope_kv_inputs() requires of every q/k/v view.
  if (h.heads > 1 && h.view.head_stride < h.dim)
    return value_error(t.name, ": head stride ", h.view.head_stride, " is smaller than head_size ",
                       h.dim, ", so heads overlap");
  if (h.tokens > 1 && h.view.token_stride < (h.heads - 1) * h.view.head_stride + h.dim)
    return value_error(t.name, ": token stride ", h.view.token_stride, " overlaps the ", h.heads,
                       " heads of a token");
  if (h.heads == 1) h.view.head_stride = 0;
  return {};
}

Error require_dtype_like(const Tensor& t, const Tensor& like) {
  if (t.code != like.code || t.bits != like.bits)
    return type_error(t.name, ": expected dtype ", like.dtype(), " (that of ", like.name, "), got ",
                      t.dtype());
  return {};
}

Error require_int64_vector(const Tensor& t, const char* expected) {
  if (!t.is(kInt, 64)) return type_error(t.name, ": expected dtype int64, got ", t.dtype());
  if (t.ndim() != 1)
    return value_error(t.name, ": expected ", expected, ", got shape ", shape_text(t.shape));
  return require_inner_contiguous(t, "and only");
}

// A cache tensor's dims are [num_blocks, block_size, num_kv_heads, head_size] ("nhd", vLLM's
// flash layout), [num_blocks, num_kv_heads, block_size, head_size] ("hnd"), or
// [num_blocks, block_size, head_size] for one KV head (MLA). Strides say where each dim lives, so
// physically permuted tensors and views into a packed K|V tensor need nothing more.
Error cache_view(const Tensor& t, std::int64_t kv_heads, std::int64_t dim, std::string& layout,
                 Cache& c) {
  const auto expected = [&] {
    return cat("[num_blocks, block_size, ", kv_heads, ", ", dim, "] (nhd) or [num_blocks, ",
               kv_heads, ", block_size, ", dim, "] (hnd)",
               kv_heads == 1 ? cat(" or [num_blocks, block_size, ", dim, "]") : "");
  };
  if (t.ndim() == 4) {
    if (layout.empty()) {
      // Both fit when block_size == num_kv_heads: then vLLM's order (nhd) is meant.
      if (t.shape[2] == kv_heads)
        layout = "nhd";
      else if (t.shape[1] == kv_heads)
        layout = "hnd";
      else
        return value_error(t.name, ": expected ", expected(), ", got shape ", shape_text(t.shape));
    }
    const int slot_dim = layout == "nhd" ? 1 : 2, head_dim = layout == "nhd" ? 2 : 1;
    c.blocks = t.shape[0];
    c.block_size = t.shape[slot_dim];
    c.heads = t.shape[head_dim];
    c.dim = t.shape[3];
    c.view = {t.data, t.strides[0], t.strides[slot_dim], t.strides[head_dim]};
  } else if (t.ndim() == 3 && kv_heads == 1) {
    c.blocks = t.shape[0];
    c.block_size = t.shape[1];
    c.heads = 1;
    c.dim = t.shape[2];
    c.view = {t.data, t.strides[0], t.strides[1], 0};
  } else {
    return value_error(t.name, ": expected ", expected(), ", got shape ", shape_text(t.shape));
  }
  if (c.heads != kv_heads || c.dim != dim) {
    const std::string want =
        layout == "nhd"   ? cat("[num_blocks, block_size, ", kv_heads, ", ", dim, "] (layout nhd)")
        : layout == "hnd" ? cat("[num_blocks, ", kv_heads, ", block_size, ", dim, "] (layout hnd)")
                          : expected();
    return value_error(t.name, ": expected ", want, ", got shape ", shape_text(t.shape));
  }
  RKV_TRY(require_inner_contiguous(t, "head_size"));
  if (c.blocks <= 0 || c.block_size <= 0)
    return value_error(t.name, ": a cache of ", c.blocks, " blocks of ", c.block_size,
                       " slots is empty");
  // Distinct (block, slot, head) entries must not overlap (check_rope_kv_inputs() asks the same):
  // sorted by stride, each dim's stride covers everything inside it.
  std::pair<std::int64_t, std::int64_t> dims[] = {{c.view.block_stride, c.blocks},
                                                  {c.view.slot_stride, c.block_size},
                                                  {c.view.head_stride, c.heads}};
  std::sort(std::begin(dims), std::end(dims));
  std::int64_t covered = c.dim;
  for (const auto& [stride, extent] : dims) {
    if (extent <= 1) continue;
    if (stride < covered)
      return value_error(t.name, ": strides ", shape_text(t.strides),
                         " make distinct cache entries of ", "shape ", shape_text(t.shape),
                         " overlap");
    covered = stride * (extent - 1) + covered;
  }
  return {};
}

}  // namespace rkv_ext
