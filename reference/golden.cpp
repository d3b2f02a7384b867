#include "golden.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

#include "host_numeric.h"

namespace rkv {
namespace {

// Address of element `i` of a buffer whose elements are `elem` bytes wide.
void* elem_at(void* base, std::int64_t i, std::size_t elem) {
  return static_cast<unsigned char*>(base) + i * static_cast<std::int64_t>(elem);
}

// Rotates dims [first, first + R) of one row, reading `src` and writing `dst` (the same row when
// in place: each pair is read before it is written). `cs` is the token's table row as floats:
// cos in [0, R/2), sin in [R/2, R).
void rotate_row(const RopeKvArgs& a, const void* src, void* dst, std::int32_t first,
                const float* cs) {
  const std::int32_t half = a.rot_dim / 2;
  for (std::int32_t i = 0; i < half; ++i) {
    const float c = cs[i], s = cs[half + i];
    const std::int32_t ix = first + (a.style == RopeStyle::neox ? i : 2 * i);
    const std::int32_t iy = first + (a.style == RopeStyle::neox ? i + half : 2 * i + 1);
    const float x = load_scalar(a.dtype, src, ix);
    const float y = load_scalar(a.dtype, src, iy);
    // The contract's order, each product rounded on its own (the build has -ffp-contract=off):
    // device __fmaf_rn(x, c, -__fmul_rn(y, s)) and __fmaf_rn(y, c, __fmul_rn(x, s)).
    const float ys = y * s;
    const float xs = x * s;
    store_scalar(a.dtype, dst, ix, std::fma(x, c, -ys));
    store_scalar(a.dtype, dst, iy, std::fma(y, c, xs));
  }
}

// The entry of (block, offset, head, d = 0): elements of `elem` bytes, the cache's dtype.
void* cache_entry(const CacheTensor& c, std::int64_t block, std::int64_t offset, std::int32_t head,
                  std::size_t elem) {
  return elem_at(c.data, block * c.block_stride + offset * c.slot_stride + head * c.head_stride,
                 elem);
}

// fp8 caches need a scale (check_rope_kv_inputs rejects a missing one); auto caches ignore it.
float scale_of(const float* scales, std::int64_t i) {
  return scales ? scales[i] : 1.0f;
}

// Writes one cache row of `n` dims from a q/k/v-typed `row` into the entry starting at `entry`.
void write_cache_row(const RopeKvArgs& a, const void* row, std::int32_t n, void* entry,
                     float scale) {
  if (a.cache_dtype == CacheDType::auto_) {
    std::memcpy(entry, row, n * dtype_bytes(a.dtype));
    return;
  }
  auto* out = static_cast<std::uint8_t*>(entry);
  const bool e4m3 = a.cache_dtype == CacheDType::fp8_e4m3;
  for (std::int32_t d = 0; d < n; ++d) {
    const float q = load_scalar(a.dtype, row, d) / scale;  // IEEE division, as __fdiv_rn
    out[d] = e4m3 ? float_to_fp8_e4m3_satfinite(q) : float_to_fp8_e5m2_satfinite(q);
  }
}

// Per-thread scratch, reused across tokens.
struct Scratch {
  std::vector<float> cos_sin;        // the token's table row, widened once for all its heads
  std::vector<unsigned char> k_row;  // one rotated key row in the q/k/v dtype
};

// Everything for token t: q rows, k rows (rotated into scratch first, so the cache sees the
// rotated k whether or not it is written back), then the cache entries.
void run_token(const RopeKvArgs& a, std::int64_t t, Scratch& scratch) {
  const std::size_t eb = dtype_bytes(a.dtype);
  // cos_sin_cache: [max_position, cos_sin_stride], in fp32 or the q/k/v dtype
  const std::int64_t cs_row = a.positions[t] * a.cos_sin_stride;
  std::vector<float>& cs = scratch.cos_sin;
  cs.resize(a.rot_dim);
  for (std::int32_t i = 0; i < a.rot_dim; ++i)
    cs[i] = a.cos_sin_fp32 ? static_cast<const float*>(a.cos_sin_cache)[cs_row + i]
                           : load_scalar(a.dtype, a.cos_sin_cache, cs_row + i);

  // query: [T, Hq, Dq]; rotated dims [q_rot_offset, q_rot_offset + R), the rest copied to query_out
  const bool separate_q = a.query_out.data != nullptr;
  for (std::int32_t h = 0; h < a.num_q_heads; ++h) {
    void* src = elem_at(a.query.data, t * a.query.token_stride + h * a.query.head_stride, eb);
    void* dst = src;
    if (separate_q) {
      dst =
          elem_at(a.query_out.data, t * a.query_out.token_stride + h * a.query_out.head_stride, eb);
      std::memcpy(dst, src, a.q_head_size * eb);
    }
    rotate_row(a, src, dst, a.q_rot_offset, cs.data());
  }

  const bool cached = a.slot_mapping != nullptr && t < a.num_cache_tokens && a.slot_mapping[t] >= 0;
  const std::int64_t slot = cached ? a.slot_mapping[t] : 0;
  const std::int64_t block = cached ? slot / a.block_size : 0;  // RoPE-only may have no blocks
  const std::int64_t offset = cached ? slot % a.block_size : 0;
  const std::size_t cb = cache_elem_bytes(a.cache_dtype, a.dtype);

  std::vector<unsigned char>& k_row = scratch.k_row;
  k_row.resize(a.k_head_size * eb);
  for (std::int32_t h = 0; h < a.num_kv_heads; ++h) {
    // key: [T, Hkv, Dk]
    void* key = elem_at(a.key.data, t * a.key.token_stride + h * a.key.head_stride, eb);
    std::memcpy(k_row.data(), key, k_row.size());
    rotate_row(a, k_row.data(), k_row.data(), 0, cs.data());
    if (a.write_back_key) std::memcpy(key, k_row.data(), k_row.size());
    if (!cached) continue;

    write_cache_row(a, k_row.data(), a.k_head_size, cache_entry(a.key_cache, block, offset, h, cb),
                    scale_of(a.k_scale, h * a.scale_head_stride));
    // value: [Tc, Hkv, Dv], not rotated
    void* value = elem_at(a.value.data, t * a.value.token_stride + h * a.value.head_stride, eb);
    write_cache_row(a, value, a.v_head_size, cache_entry(a.value_cache, block, offset, h, cb),
                    scale_of(a.v_scale, h * a.scale_head_stride));
  }
}

}  // namespace

void golden_rope_kv(const RopeKvArgs& args, const std::vector<std::int64_t>* tokens, int threads) {
  const std::int64_t n = tokens ? static_cast<std::int64_t>(tokens->size()) : args.num_tokens;
  auto token_at = [&](std::int64_t i) { return tokens ? (*tokens)[i] : i; };
  // Tokens touch disjoint q/k rows and (slots being unique) disjoint cache entries, so contiguous
  // chunks of them can run on separate threads without any ordering between them.
  auto run_range = [&](std::int64_t begin, std::int64_t end) {
    Scratch scratch;
    for (std::int64_t i = begin; i < end; ++i)
      run_token(args, token_at(i), scratch);
  };
  const std::int64_t workers = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(n, 1));
  if (workers == 1) {
    run_range(0, n);
    return;
  }
  std::vector<std::thread> pool;
  for (std::int64_t w = 0; w < workers; ++w)
    pool.emplace_back(run_range, n * w / workers, n * (w + 1) / workers);
  for (std::thread& th : pool)
    th.join();
}

}  // namespace rkv
