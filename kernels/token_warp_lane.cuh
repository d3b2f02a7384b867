// The token-warp layout (FusedKernel::token_warp; token_warp_layout, work_plan.h): one warp a
// token, for MLA with one kv head (the 64-wide k_pe and the 512-wide latent) whose q rows are
// rotated in place. With partial rotary the k row's pass-through chunks are copied to the cache
// by the lanes after its rotated ones (KPASS).
//
// What the unit kernels redo for every unit (split the index into token and unit, read the
// position, the slot and the scales, split the slot into block and offset, find the cos/sin
// entries) a lane does once per token here. A row's rotation units divide the warp, so a lane's
// unit w is the same in every q row and in the k row: its cos/sin entries are loaded once too.
// And a lane has more bytes in flight: at each step it loads two q units, two latent chunks and
// (at the first step, lanes below the k row's units) its k unit before it stores any of them.
// Gpt-j's unit is one chunk; neox lanes hold one chunk of a unit's two (token_warp_lane_neox).
#pragma once

#include <cstdint>

#include "fused_launch.h"
#include "rope_kv.h"
#include "rope_kv_device.cuh"
#include "work_plan.h"

namespace rkv::detail {

// An A/B knob (round 28b): the CTAs a SM gpt-j's kernel's registers must allow (1: no bound).
// Neox's kernel is bounded to 5 (kNeoxMinCtas).
#ifndef RKV_TOKEN_WARP_MIN_CTAS
#define RKV_TOKEN_WARP_MIN_CTAS 1
#endif

// Neox's bound: 96 registers (bf16) and no spill where it would take 103 and run 4 CTAs a SM,
// whose build was 0.3 % faster than the unit kernels while the bounded one was 6.8 % (round 29,
// on an H200: what decides these launches is bytes in flight a SM).
constexpr int kNeoxMinCtas = 5;

// The packed neox full-row kernel's bound (round 63): 70-72 registers, no spill, 7 CTAs a SM where
// the float table's 79-80 allow 6. Packing alone saves only 3-5 registers (75-77: still 6 CTAs);
// the bound is what moves the CTAs. On an H100 it made the e4m3/e5m2 mla:16 neox launches at
// 16k-65k tokens 3.4-6.7 % faster (results/NOTES.md, round 63).
constexpr int kNeoxPackedMinCtas = 7;

// q units (one from each of that many rows) and latent chunks a lane loads before it stores.
constexpr int kRowsAStep = 2;

// What every lane of token t's warp reads once: the slot and scales, the cache entries it
// writes, and its q, k and v rows. Only the first Tc tokens own a slot; -1 (or no mapping) means
// nothing goes to the cache. The scales are read for every such token, not after the slot: their
// pointers are set wherever the cache is written (an fp8 cache refuses null ones), so neither
// waits for the other.
template <typename T, CacheDType C>
struct TokenRows {
  using CacheT = typename CacheElem<T, C>::type;
  std::int64_t slot;
  float k_scale, v_scale;
  CacheT *k_entry, *v_entry;
  const T* q_src;
  T* q_dst;
  std::int64_t q_src_head, q_dst_head;
  T* k_row;
  const T* v_row;  // null without a slot
};

template <typename T, CacheDType C>
__device__ __forceinline__ TokenRows<T, C> token_rows(const RopeKvArgs& a, const WorkPlan& p,
                                                      const std::int64_t t) {
  using CacheT = typename CacheElem<T, C>::type;
  TokenRows<T, C> r;
  const bool caching = a.slot_mapping != nullptr && t < a.num_cache_tokens;
  r.slot = caching ? a.slot_mapping[t] : -1;
  const bool fp8 = C != CacheDType::auto_;
  r.k_scale = fp8 && caching ? a.k_scale[0] : 1.f;
  r.v_scale = fp8 && caching ? a.v_scale[0] : 1.f;
  std::uint32_t block = 0, offset = 0;
  if (r.slot >= 0) p.per_block.divmod(static_cast<std::uint32_t>(r.slot), block, offset);
  r.k_entry = cache_entry_at<CacheT>(a.key_cache, block, offset, 0, 0);
  r.v_entry = cache_entry_at<CacheT>(a.value_cache, block, offset, 0, 0);
  r.q_src = static_cast<const T*>(a.query.data) + t * a.query.token_stride;
  r.q_dst = a.query_out.data == nullptr
                ? const_cast<T*>(r.q_src)
                : static_cast<T*>(a.query_out.data) + t * a.query_out.token_stride;
  r.q_src_head = a.query.head_stride;
  r.q_dst_head = a.query_out.data == nullptr ? a.query.head_stride : a.query_out.head_stride;
  r.k_row = static_cast<T*>(a.key.data) + t * a.key.token_stride;
  r.v_row = r.slot >= 0 ? static_cast<const T*>(a.value.data) + t * a.value.token_stride : nullptr;
  return r;
}

// The work of lane `lane` (0-31) of token t's warp: the same reads in the same order as the unit
// kernels (position and cos/sin, slot and scales, then the wait for the previous grid, then
// q/k/v), the same numerics, the same bytes written.
template <typename T, CacheDType C, int VEC, bool NEOX, bool KPASS>
__device__ __forceinline__ void token_warp_lane(const RopeKvArgs& a, const WorkPlan& p,
                                                const std::int64_t t, const int lane) {
  using Unit = UnitChunks<T, VEC, NEOX>;
  // q_rot is a power of two at most 32 (token_warp_layout): a warp covers 32 / q_rot rows a time.
  const int row_shift = __ffs(p.q_rot) - 1;
  const int w = lane & (p.q_rot - 1);
  const int first_row = lane >> row_shift, rows_a_step = 32 >> row_shift;

  const UnitCosSin<VEC, NEOX> cs =
      load_unit_cos_sin<T, VEC, NEOX>(cos_sin_row<T>(a, t), a.cos_sin_fp32, a.rot_dim, w);
  const TokenRows<T, C> rows = token_rows<T, C>(a, p, t);
  const auto [slot, k_scale, v_scale, k_entry, v_entry, q_src, q_dst, q_src_head, q_dst_head, k_row,
              v_row] = rows;

  wait_for_prerequisite_grid();
  // Step s: kRowsAStep q rows (first_row + (kRowsAStep s + i) rows_a_step), as many latent chunks
  // (lane + 32 (kRowsAStep s + i)), and at step 0 the k row's unit of lanes below k_rot.
  for (int s = 0;; ++s) {
    const int step_row = first_row + kRowsAStep * s * rows_a_step;
    const int step_chunk = lane + 32 * kRowsAStep * s;
    if (step_row >= a.num_q_heads && step_chunk >= p.v_units) break;
    const bool has_k = s == 0 && lane < p.k_rot;
    // Partial rotary: the k row's pass-through chunks, on the lanes after its rotation units,
    // go to the cache only (the row itself keeps them).
    const bool has_k_pass =
        KPASS && s == 0 && slot >= 0 && lane >= p.k_rot && lane < p.k_rot + p.k_pass;
    const int k_pass_dim = passthrough_dim(lane - p.k_rot, VEC, 0, a.rot_dim);
    // Every load of the step before any store (the stores may alias the next loads for the
    // compiler, which would otherwise keep them in order).
    Unit q[kRowsAStep], k;
    Vec<T, VEC> v[kRowsAStep], k_pass;
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i)
      if (step_row + i * rows_a_step < a.num_q_heads)
        q[i] = load_unit_chunks<T, VEC, NEOX>(q_src + (step_row + i * rows_a_step) * q_src_head,
                                              a.q_rot_offset, a.rot_dim, w);
    if (has_k) k = load_unit_chunks<T, VEC, NEOX>(k_row, 0, a.rot_dim, w);
    if (has_k_pass) k_pass = load_vec<T, VEC>(k_row + k_pass_dim);
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i)
      if (slot >= 0 && step_chunk + 32 * i < p.v_units)
        v[i] = load_vec<T, VEC>(v_row + (step_chunk + 32 * i) * VEC);

#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i) {
      const int h = step_row + i * rows_a_step;
      if (h >= a.num_q_heads) continue;
      const RotatedChunks<T, VEC> r =
          rotate_unit_chunks<T, VEC, NEOX, true>(q[i], a.q_rot_offset, a.rot_dim, w, cs);
#pragma unroll
      for (int j = 0; j < (NEOX ? 2 : 1); ++j)
        store_vec<T, VEC>(q_dst + h * q_dst_head + r.dim[j], r.chunk[j]);
    }
    if (has_k) {
      const RotatedChunks<T, VEC> r =
          rotate_unit_chunks<T, VEC, NEOX, true>(k, 0, a.rot_dim, w, cs);
#pragma unroll
      for (int j = 0; j < (NEOX ? 2 : 1); ++j) {
        if (a.write_back_key) store_vec<T, VEC>(k_row + r.dim[j], r.chunk[j]);
        if (slot >= 0) store_cache_chunk<T, C, VEC, true>(k_entry + r.dim[j], r.chunk[j], k_scale);
      }
    }
    if (has_k_pass) store_cache_chunk<T, C, VEC, true>(k_entry + k_pass_dim, k_pass, k_scale);
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i) {
      const int c = step_chunk + 32 * i;
      if (slot >= 0 && c < p.v_units)
        store_cache_chunk<T, C, VEC, true>(v_entry + c * VEC, v[i], v_scale);
    }
  }
}

// Neox (round 29): a lane holds one chunk, not a unit's two. A rotated row's 2 q_rot chunks lie on
// consecutive lanes, a chunk's partner (the other half of its pairs) q_rot lanes away, fetched by
// a shuffle: the loads and registers of gpt-j's lane (a unit of two chunks a lane, two rows a
// step, needed 143 registers and ran 5-21 % slower; round 28). Each lane computes the formula of
// its half (x' = x c - y s, y' = y c + x s), as rotate_pair does for both.
// PACKED (16-bit q/k with the table in that dtype, dispatch_cos_sin_packing): the lane's cos/sin
// entries held as loaded (NeoxPackedCosSin, 8 registers for 8-element chunks where floats take
// 16) and widened where the rotation uses them (round 63).
template <typename T, CacheDType C, int VEC, bool KPASS, bool PACKED>
__device__ __forceinline__ void token_warp_lane_neox(const RopeKvArgs& a, const WorkPlan& p,
                                                     const std::int64_t t, const int lane) {
  // 2 q_rot is a power of two at most 32 (token_warp_layout): a warp covers 32 / (2 q_rot) rows.
  const int row_chunks = 2 * p.q_rot;
  const int row_shift = __ffs(row_chunks) - 1;
  const int c = lane & (row_chunks - 1);
  const bool first_half = c < p.q_rot;
  const int w = c & (p.q_rot - 1);
  const int partner = lane ^ p.q_rot;
  const int first_row = lane >> row_shift, rows_a_step = 32 >> row_shift;
  const int dim = w * VEC + (first_half ? 0 : a.rot_dim / 2);

  const auto cs = [&] {
    if constexpr (PACKED)
      return load_neox_packed_cos_sin<T, VEC>(cos_sin_row<T>(a, t), a.rot_dim, w);
    else
      return load_unit_cos_sin<T, VEC, true>(cos_sin_row<T>(a, t), a.cos_sin_fp32, a.rot_dim, w);
  }();
  const TokenRows<T, C> rows = token_rows<T, C>(a, p, t);
  const auto [slot, k_scale, v_scale, k_entry, v_entry, q_src, q_dst, q_src_head, q_dst_head, k_row,
              v_row] = rows;

  // The rotation of this lane's chunk with its partner's (every lane of the warp calls it).
  // rotate_row_warp_chunk's formula, but with float cos/sin entries: this kernel also takes fp32
  // tables, which the row-warp kernel (16-bit tables only) does not. One helper for both would
  // change one of the two measured kernels' code, so that waits for an A/B of its own.
  const auto rotate = [&](const Vec<T, VEC>& own) {
    const Vec<T, VEC> other = shuffle_chunk<T, VEC>(own, partner);
    Vec<T, VEC> out;
    // x' = x c - y s in the first half, y' = y c + x s in the second.
    const auto rotated = [&](float mine, float theirs, int j) {
      const float c = cos_entry(cs, j), sn = sin_entry(cs, j);
      return from_float<T>(first_half ? __fmaf_rn(mine, c, -__fmul_rn(theirs, sn))
                                      : __fmaf_rn(mine, c, __fmul_rn(theirs, sn)));
    };
    if constexpr (reads_words<T, VEC, true>()) {
      float mine[VEC], theirs[VEC];
      bf16_chunk_floats<VEC>(own, mine);
      bf16_chunk_floats<VEC>(other, theirs);
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        out.v[j] = rotated(mine[j], theirs[j], j);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        out.v[j] = rotated(to_float(own.v[j]), to_float(other.v[j]), j);
    }
    return out;
  };

  wait_for_prerequisite_grid();
  // Steps a warp takes, the same for every lane (the shuffles need the whole warp).
  const int rows_per_step = kRowsAStep * rows_a_step;
  const int q_steps = (a.num_q_heads + rows_per_step - 1) / rows_per_step;
  const int v_steps = slot >= 0 ? (p.v_units + 32 * kRowsAStep - 1) / (32 * kRowsAStep) : 0;
  const int steps = q_steps > v_steps ? q_steps : v_steps;
  for (int s = 0; s < steps; ++s) {
    const int step_row = first_row + s * rows_per_step;
    const int step_chunk = lane + 32 * kRowsAStep * s;
    const bool has_k = s == 0 && lane < row_chunks;
    // Partial rotary: the k row's pass-through chunks, on the lanes after its rotated chunks, go
    // to the cache only (the row itself keeps them).
    const bool has_k_pass =
        KPASS && s == 0 && slot >= 0 && lane >= row_chunks && lane < row_chunks + p.k_pass;
    const int k_pass_dim = passthrough_dim(lane - row_chunks, VEC, 0, a.rot_dim);
    Vec<T, VEC> q[kRowsAStep] = {}, k = {};
    Vec<T, VEC> v[kRowsAStep], k_pass;
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i)
      if (step_row + i * rows_a_step < a.num_q_heads)
        q[i] = load_vec<T, VEC>(q_src + (step_row + i * rows_a_step) * q_src_head + a.q_rot_offset +
                                dim);
    if (has_k) k = load_vec<T, VEC>(k_row + dim);
    if (has_k_pass) k_pass = load_vec<T, VEC>(k_row + k_pass_dim);
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i)
      if (slot >= 0 && step_chunk + 32 * i < p.v_units)
        v[i] = load_vec<T, VEC>(v_row + (step_chunk + 32 * i) * VEC);

#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i) {
      // Warp-uniform: whether any lane has a row at this step's i-th row group.
      if (s * rows_per_step + i * rows_a_step >= a.num_q_heads) continue;
      const Vec<T, VEC> r = rotate(q[i]);
      const int h = step_row + i * rows_a_step;
      if (h < a.num_q_heads) store_vec<T, VEC>(q_dst + h * q_dst_head + a.q_rot_offset + dim, r);
    }
    if (s == 0) {
      const Vec<T, VEC> r = rotate(k);
      if (has_k) {
        if (a.write_back_key) store_vec<T, VEC>(k_row + dim, r);
        if (slot >= 0) store_cache_chunk<T, C, VEC, true>(k_entry + dim, r, k_scale);
      }
    }
    if (has_k_pass) store_cache_chunk<T, C, VEC, true>(k_entry + k_pass_dim, k_pass, k_scale);
#pragma unroll
    for (int i = 0; i < kRowsAStep; ++i) {
      const int c2 = step_chunk + 32 * i;
      if (slot >= 0 && c2 < p.v_units)
        store_cache_chunk<T, C, VEC, true>(v_entry + c2 * VEC, v[i], v_scale);
    }
  }
}

// The token-warp kernel: a flat grid of one warp a token (kFusedThreads / 32 tokens a CTA).
// KPASS: k rows with pass-through chunks (partial rotary), a kernel of its own so that the full
// rows' kernels keep their registers. Gpt-j's is bounded to 6 CTAs a SM (80 registers, no spill;
// 85 unbounded); neox's takes 92-94 under its bound of 5 (at 6 it would spill). With a 16-bit
// cache (full rows only) gpt-j takes 75 registers and neox, bounded to 6 CTAs a SM, 79-80.
// PACKED: neox full rows with the table in the 16-bit q/k dtype, bounded to 7 (kNeoxPackedMinCtas).
template <typename T, CacheDType C, int VEC, bool NEOX, bool KPASS = false, bool PACKED = false>
__global__ void __launch_bounds__(kFusedThreads, NEOX    ? (PACKED ? kNeoxPackedMinCtas
                                                            : C == CacheDType::auto_ ? 6
                                                                                     : kNeoxMinCtas)
                                                 : KPASS ? 6
                                                         : RKV_TOKEN_WARP_MIN_CTAS)
    rope_kv_fused_token_warp_kernel(const RopeKvArgs a, const WorkPlan p) {
  // As the unit kernels: the next grid may be scheduled once every CTA of this one runs.
  allow_dependent_grid_launch();
  const std::int64_t t = (std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x) / 32;
  // Every lane of a warp has the same token (a warp's tokens are all in or all out of range).
  if (t >= a.num_tokens) return;
  static_assert(!PACKED || (NEOX && !KPASS && sizeof(T) == 2),
                "packed cos/sin: 16-bit neox full rows only");
  if constexpr (NEOX)
    token_warp_lane_neox<T, C, VEC, KPASS, PACKED>(a, p, t, static_cast<int>(threadIdx.x % 32));
  else
    token_warp_lane<T, C, VEC, NEOX, KPASS>(a, p, t, static_cast<int>(threadIdx.x % 32));
}

}  // namespace rkv::detail
