// One spoiled argument per refusal of check_launch_args (rope_kv.h), shared by the CPU test of the
// check (launch_check_test.cpp) and the GPU test that runs the launchers on real buffers and shows
// that no output byte changed (gpu_validation_test.cu). Each entry breaks exactly one field of a
// valid case and names the reason the check must give.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "plan/case_spec.h"
#include "rope_kv.h"

namespace rkv {

struct LaunchSpoiler {
  const char* name;  // a gtest name: [A-Za-z0-9_]
  void (*spoil)(RopeKvArgs&);
  const char* reason;  // check_launch_args' answer for the spoiled arguments
};

// bf16 q/k/v into an e4m3 cache with per-head scales, 4 query heads over 2 KV heads of 64, half
// of each head rotated (so pass-through dims exist), a separate query_out, 8 tokens in 16-slot
// blocks: every field the check looks at is in use.
inline CaseSpec launch_spoiler_base() {
  CaseSpec s;
  s.dtype = DType::bf16;
  s.cache_dtype = CacheDType::fp8_e4m3;
  s.heads = HeadConfig{4, 2, 64, false};
  s.style = RopeStyle::neox;
  s.rot_dim = 32;
  s.layout = *CacheLayout::parse("nhd");
  s.tokens = 8;
  s.scale = ScaleKind::per_head;
  s.query_out = QueryOut::separate;
  return s;
}

inline void* shifted(void* p, std::int64_t bytes) {
  return static_cast<char*>(p) + bytes;
}

inline std::vector<LaunchSpoiler> launch_spoilers() {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  return {
      // sizes
      {"NegativeTokens", [](RopeKvArgs& a) { a.num_tokens = -1; }, "num_tokens is negative"},
      {"TwoToThe31Tokens", [](RopeKvArgs& a) { a.num_tokens = std::int64_t{1} << 31; },
       "num_tokens is 2^31 or more"},
      {"MoreCacheTokensThanTokens", [](RopeKvArgs& a) { a.num_cache_tokens = a.num_tokens + 1; },
       "num_cache_tokens is outside [0, num_tokens]"},
      {"NegativeCacheTokens", [](RopeKvArgs& a) { a.num_cache_tokens = -1; },
       "num_cache_tokens is outside [0, num_tokens]"},
      {"ZeroQueryHeads", [](RopeKvArgs& a) { a.num_q_heads = 0; }, "num_q_heads is not positive"},
      {"ZeroKvHeads", [](RopeKvArgs& a) { a.num_kv_heads = 0; }, "num_kv_heads is not positive"},
      {"QueryHeadsNotAMultipleOfKvHeads", [](RopeKvArgs& a) { a.num_q_heads = 3; },
       "num_q_heads is not a multiple of num_kv_heads"},
      {"ZeroQueryHeadSize", [](RopeKvArgs& a) { a.q_head_size = 0; },
       "q_head_size is not positive"},
      {"ZeroKeyHeadSize", [](RopeKvArgs& a) { a.k_head_size = 0; }, "k_head_size is not positive"},
      {"NegativeValueHeadSize", [](RopeKvArgs& a) { a.v_head_size = -64; },
       "v_head_size is not positive"},
      {"OddRotDim", [](RopeKvArgs& a) { a.rot_dim = 31; }, "rot_dim is not even and positive"},
      {"ZeroRotDim", [](RopeKvArgs& a) { a.rot_dim = 0; }, "rot_dim is not even and positive"},
      // Issue 14: a rotation wider than the heads (192 on 128 there; 128 on 64 here) used to
      // write past every row and return cudaSuccess.
      {"RotDimWiderThanTheHeads",
       [](RopeKvArgs& a) {
         a.rot_dim = 2 * a.k_head_size;
         a.cos_sin_stride = a.rot_dim;
       },
       "rot_dim is larger than k_head_size"},
      {"NegativeQueryRotOffset", [](RopeKvArgs& a) { a.q_rot_offset = -8; },
       "q_rot_offset is negative"},
      {"QueryWindowPastTheHead", [](RopeKvArgs& a) { a.q_rot_offset = a.q_head_size - 24; },
       "q_rot_offset + rot_dim is larger than q_head_size"},
      {"TwoToThe31ElementsPerToken", [](RopeKvArgs& a) { a.q_head_size = std::int32_t{1} << 30; },
       "a token has 2^31 or more q/k/v elements"},
      {"UnknownDType", [](RopeKvArgs& a) { a.dtype = static_cast<DType>(7); },
       "dtype is not a DType"},
      {"UnknownCacheDType", [](RopeKvArgs& a) { a.cache_dtype = static_cast<CacheDType>(7); },
       "cache_dtype is not a CacheDType"},
      {"UnknownStyle", [](RopeKvArgs& a) { a.style = static_cast<RopeStyle>(7); },
       "style is not a RopeStyle"},
      {"ScaleHeadStrideTwo", [](RopeKvArgs& a) { a.scale_head_stride = 2; },
       "scale_head_stride is neither 0 nor 1"},
      {"NegativeScaleHeadStride", [](RopeKvArgs& a) { a.scale_head_stride = -1; },
       "scale_head_stride is neither 0 nor 1"},
      // the rotary table
      {"ZeroMaxPosition", [](RopeKvArgs& a) { a.max_position = 0; },
       "max_position is not positive"},
      {"CosSinRowShorterThanRotDim", [](RopeKvArgs& a) { a.cos_sin_stride = a.rot_dim - 2; },
       "cos_sin_stride is shorter than rot_dim"},
      {"CosSinTableTooLargeToIndex", [](RopeKvArgs& a) { a.max_position = kMax / 8; },
       "cos_sin_cache is too large to index in 64 bits"},
      // q/k/v views
      {"QueryHeadsOverlap", [](RopeKvArgs& a) { a.query.head_stride = a.q_head_size / 2; },
       "query strides overlap rows"},
      {"QueryTokensOverlap",
       [](RopeKvArgs& a) { a.query.token_stride = 3 * a.query.head_stride + a.q_head_size - 1; },
       "query strides overlap rows"},
      {"QueryTooLargeToIndex", [](RopeKvArgs& a) { a.query.token_stride = kMax / 4; },
       "query is too large to index in 64 bits"},
      {"QueryOutHeadsOverlap", [](RopeKvArgs& a) { a.query_out.head_stride = 0; },
       "query_out strides overlap rows"},
      {"KeyHeadsOverlap", [](RopeKvArgs& a) { a.key.head_stride = 0; }, "key strides overlap rows"},
      {"NullPositions", [](RopeKvArgs& a) { a.positions = nullptr; }, "positions is null"},
      {"NullCosSin", [](RopeKvArgs& a) { a.cos_sin_cache = nullptr; }, "cos_sin_cache is null"},
      {"NullQuery", [](RopeKvArgs& a) { a.query.data = nullptr; }, "query.data is null"},
      {"NullKey", [](RopeKvArgs& a) { a.key.data = nullptr; }, "key.data is null"},
      // the cache
      {"ZeroBlockSize", [](RopeKvArgs& a) { a.block_size = 0; }, "block_size is not positive"},
      {"ZeroBlocks", [](RopeKvArgs& a) { a.num_blocks = 0; }, "num_blocks is not positive"},
      {"TwoToThe31Slots",
       [](RopeKvArgs& a) { a.num_blocks = (std::int64_t{1} << 31) / a.block_size; },
       "the cache has 2^31 or more slots"},
      {"NullValue", [](RopeKvArgs& a) { a.value.data = nullptr; }, "value.data is null"},
      {"NullKeyCache", [](RopeKvArgs& a) { a.key_cache.data = nullptr; }, "key_cache.data is null"},
      {"NullValueCache", [](RopeKvArgs& a) { a.value_cache.data = nullptr; },
       "value_cache.data is null"},
      {"ValueHeadsOverlap", [](RopeKvArgs& a) { a.value.head_stride = a.v_head_size - 1; },
       "value strides overlap rows"},
      {"KeyCacheEntriesOverlap", [](RopeKvArgs& a) { a.key_cache.head_stride = 32; },
       "key_cache strides make distinct entries overlap"},
      {"ValueCacheEntriesOverlap",
       [](RopeKvArgs& a) { a.value_cache.slot_stride = a.value_cache.head_stride; },
       "value_cache strides make distinct entries overlap"},
      {"KeyCacheTooLargeToIndex", [](RopeKvArgs& a) { a.key_cache.slot_stride = kMax / 8; },
       "key_cache is too large to index in 64 bits"},
      {"NullKeyScale", [](RopeKvArgs& a) { a.k_scale = nullptr; },
       "k_scale is null (an fp8 cache needs it)"},
      {"NullValueScale", [](RopeKvArgs& a) { a.v_scale = nullptr; },
       "v_scale is null (an fp8 cache needs it)"},
      // no access width: one bf16 off the pair alignment
      {"MisalignedKey", [](RopeKvArgs& a) { a.key.data = shifted(a.key.data, 2); },
       "no access width fits the head sizes, rot_dim, strides and pointer alignment"},
  };
}

}  // namespace rkv
