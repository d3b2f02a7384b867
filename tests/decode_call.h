// A small decode call whose every pointer, stride and size is distinct, for host tests of the
// launchers' parameter blocks (row_warp_params_test.cpp, pair_params_test.cpp). The vectors only
// give the pointers distinct addresses; nothing is launched.
#pragma once

#include <cstdint>
#include <vector>

#include "rope_kv.h"

namespace rkv {

// A GQA decode call with every pointer distinct: 4 query heads over 2 kv heads of 64, bf16, q
// rotated into a separate output, k written back, an fp8 cache with per-head scales.
struct DecodeCall {
  std::vector<std::int64_t> positions = {3, 5, 7};
  std::vector<std::int64_t> slots = {9, -1};
  std::vector<std::uint16_t> q = std::vector<std::uint16_t>(3 * 4 * 64),
                             q_out = std::vector<std::uint16_t>(3 * 4 * 64),
                             k = std::vector<std::uint16_t>(3 * 2 * 64),
                             v = std::vector<std::uint16_t>(3 * 2 * 64),
                             cos_sin = std::vector<std::uint16_t>(16 * 64);
  std::vector<std::uint8_t> k_cache = std::vector<std::uint8_t>(4 * 16 * 2 * 64),
                            v_cache = std::vector<std::uint8_t>(4 * 16 * 2 * 64);
  float scales[2] = {0.5f, 2.f};
  RopeKvArgs a;

  DecodeCall() {
    a.num_tokens = 3;
    a.num_cache_tokens = 2;
    a.num_q_heads = 4;
    a.num_kv_heads = 2;
    a.q_head_size = a.k_head_size = a.v_head_size = 64;
    a.rot_dim = 64;
    a.dtype = DType::bf16;
    a.cache_dtype = CacheDType::fp8_e4m3;
    a.positions = positions.data();
    a.cos_sin_cache = cos_sin.data();
    a.cos_sin_stride = 64;
    a.max_position = 16;
    a.query = {q.data(), 4 * 64, 64};
    a.query_out = {q_out.data(), 4 * 64 + 8, 64};
    a.key = {k.data(), 2 * 64, 64};
    a.value = {v.data(), 2 * 64, 64};
    a.slot_mapping = slots.data();
    a.key_cache = {k_cache.data(), 16 * 2 * 64, 2 * 64, 64};
    a.value_cache = {v_cache.data(), 16 * 2 * 64, 2 * 64, 64};
    a.block_size = 16;
    a.num_blocks = 4;
    a.k_scale = &scales[0];
    a.v_scale = &scales[1];
    a.scale_head_stride = 1;
  }
};

}  // namespace rkv
