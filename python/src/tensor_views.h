// The shape checks of rope_kv._ext that turn one imported tensor into a kernel-library view: q/k/v
// as [tokens, heads, head_size] (rkv::HeadTensor), a paged cache as (block, slot, head) strides
// (rkv::CacheTensor), an int64 index vector. Each is O(1) in the number of tokens and reads no
// device memory, so it may run before every launch, also during CUDA graph capture.
#pragma once

#include <cstdint>
#include <string>

#include "dlpack_tensor.h"
#include "refusal.h"
#include "rope_kv.h"

namespace rkv_ext {

// A TypeError naming `why` where `t` is None.
Error require_given(const Tensor& t, const char* why);

// The innermost dim must be contiguous; `what` names it for the message.
Error require_inner_contiguous(const Tensor& t, const char* what);

Error require_dtype_like(const Tensor& t, const Tensor& like);

// A 1-D int64 tensor, contiguous; `expected` names its shape for the message.
Error require_int64_vector(const Tensor& t, const char* expected);

// A [tokens, heads, dim] view, from a 3-D tensor or a 2-D [tokens, heads * head_size] one.
struct Heads {
  std::int64_t tokens = 0, heads = 0, dim = 0;
  rkv::HeadTensor view;
};

// head_size 0: not given (a 2-D tensor is then refused); `expected` names the shapes accepted.
Error head_view(const Tensor& t, std::int64_t head_size, const char* expected, Heads& h);

struct Cache {
  rkv::CacheTensor view;
  std::int64_t blocks = 0, block_size = 0, heads = 0, dim = 0;
};

// A paged cache of `kv_heads` heads of `dim`, in layout "nhd" or "hnd"; `layout` "" is inferred
// from the shape and set, so the value cache is then read like the key cache.
Error cache_view(const Tensor& t, std::int64_t kv_heads, std::int64_t dim, std::string& layout,
                 Cache& c);

}  // namespace rkv_ext
