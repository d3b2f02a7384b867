// rope_kv_fused: RoPE on q and k plus the paged cache write of k and v, in one launch.
//
// One thread per work unit (work_plan.h), flattened over [token, unit]: at N=1 a 32x8x128 bf16
// case is 512 threads spread over several CTAs, at large N millions, with no idle lanes for
// GQA/MQA. Each thread loads its 16-byte chunks before it stores, and k is rotated and cached from
// registers, so k is read once (the unfused pair reads it twice).
//
// Two launch shapes of the same unit code (results/NOTES.md, v4): a flat grid of one unit per
// thread while the grid fits on the GPU at once, and, beyond that with a bf16/fp16 cache, a grid
// of the resident CTAs whose threads stride over the units: 5-7 % faster at 16k tokens, closer to
// the copy bandwidth (long launches take 16 waves of that grid: plan_fused_launch). With an fp8
// cache the strided grid pays only for long launches and for GQA shapes with long q rows or
// heads of up to 128 in role-major order (MHA, short rows and 2048-token launches lost:
// fused_launch.cpp's fp8_strided_pays), so the other fp8 launches keep the flat grid, MHA's with
// two chunks a copy unit (rope_kv_fused_flat_wide_kernel, fp8_flat_wide_pays). The strided
// grid drops a CTA or two where its stride would otherwise pin each thread to the same few units of
// every token (strided_grid_ctas, work_plan.h). At decode sizes neox rows of rotation only take a
// third shape with its own lane code and its own compact parameters, the row-warp layout
// (RowWarpPlan, work_plan.h; row_warp_params.h); the other decode launches run role-major with
// each segment padded to whole warps, with compact parameters up to a launch size
// (rope_kv_fused_decode_roles_kernel; decode_role_params.h). With fp8 caches, neox role-major
// launches at decode sizes, and beyond them where a token has few q rotation units, take neox
// units of half a chunk (at decode sizes rope_kv_fused_half_kernel, or the compact kernel with
// HALF; beyond them rope_kv_fused_half_prefill_kernel, bounded to 16 CTAs a SM). Mla:16 with
// an fp8 cache beyond decode sizes runs one warp a token (rope_kv_fused_token_warp_kernel,
// token_warp_lane.cuh; neox with a chunk a lane), and so does mla:16 with a 16-bit cache from two
// and a half CTAs a SM (gpt-j) or two (neox) to a wave of that kernel. Which of these a
// call takes is decided in one place, plan_fused_launch (fused_launch.h, host code a unit test
// asks); this file's launcher only turns its answer into a launch.
#include <type_traits>

#include "decode_role_params.h"
#include "dispatch.cuh"
#include "fused_launch.h"
#include "rope_kv.h"
#include "rope_kv_device.cuh"
#include "row_warp_params.h"
#include "token_warp_lane.cuh"
#include "work_plan.h"

namespace rkv {
namespace detail {

// kernels/CMakeLists.txt's A/B knob: 0 leaves the register count to the compiler.
#ifndef RKV_FUSED_MIN_CTAS
#define RKV_FUSED_MIN_CTAS 0
#endif
#if RKV_FUSED_MIN_CTAS > 0
#define RKV_FUSED_LAUNCH_BOUNDS __launch_bounds__(kFusedThreads, RKV_FUSED_MIN_CTAS)
#else
#define RKV_FUSED_LAUNCH_BOUNDS __launch_bounds__(kFusedThreads)
#endif

// kernels/CMakeLists.txt's A/B knob: 0 sizes the strided grid by occupancy alone.
#ifndef RKV_STRIDED_MAX_CTAS_PER_SM
#define RKV_STRIDED_MAX_CTAS_PER_SM 0
#endif

// cache_entry with the block split by the plan's divider (the launcher refuses caches of 2^31 or
// more slots).
template <typename E>
__device__ __forceinline__ E* plan_cache_entry(const CacheTensor& c, const WorkPlan& p,
                                               std::int64_t slot, int head, int dim) {
  std::uint32_t block, offset;
  p.per_block.divmod(static_cast<std::uint32_t>(slot), block, offset);
  return cache_entry_at<E>(c, block, offset, head, dim);
}

// The entry (slot, head, dim) of a compact parameter block's cache view (row_warp_params.h,
// decode_role_params.h): the block split by the view's own divider. slot >= 0 (the launcher
// refuses caches of 2^31 or more slots).
template <typename E, typename Role>
__device__ __forceinline__ E* role_cache_entry(const Role& r, std::int64_t slot, int head,
                                               int dim) {
  std::uint32_t block, offset;
  r.per_block.divmod(static_cast<std::uint32_t>(slot), block, offset);
  return static_cast<E*>(r.cache) + block * r.cache_block_stride + offset * r.cache_slot_stride +
         std::int64_t{head} * r.cache_head_stride + dim;
}

// Token t and unit u of work index gid, tokens of `units_per_token` units: the host's divider
// while the index space allows it (below 2^31: the common case), 64-bit division beyond.
__device__ __forceinline__ void token_and_unit(const std::int64_t gid,
                                               const std::int64_t total_units,
                                               const FastDivmod& per_token,
                                               const std::int64_t units_per_token, std::int64_t& t,
                                               int& u) {
  if (total_units <= 0x7fffffffLL) {
    std::uint32_t tq, ur;
    per_token.divmod(static_cast<std::uint32_t>(gid), tq, ur);
    t = tq;
    u = static_cast<int>(ur);
  } else {
    t = gid / units_per_token;
    u = static_cast<int>(gid - t * units_per_token);
  }
}

// Rotation unit w of one head row (dims [off, off + rot_dim)): its cos/sin entries read, then the
// wait for the previous grid, then its chunks loaded and rotated. PACKED: a neox unit of a table in
// the q/k dtype holds its entries packed (NeoxPackedCosSin, rope_kv_device.cuh).
template <typename T, int RV, bool NEOX, bool PACKED>
__device__ __forceinline__ RotatedChunks<T, RV> read_wait_rotate(const RopeKvArgs& a,
                                                                 const std::int64_t t, const T* row,
                                                                 const int off, const int w) {
  if constexpr (PACKED) {
    const NeoxPackedCosSin<T, RV> cs =
        load_neox_packed_cos_sin<T, RV>(cos_sin_row<T>(a, t), a.rot_dim, w);
    wait_for_prerequisite_grid();
    return rotate_unit<T, RV, true>(row, off, a.rot_dim, w, cs);
  } else {
    const UnitCosSin<RV, NEOX> cs =
        load_unit_cos_sin<T, RV, NEOX>(cos_sin_row<T>(a, t), a.cos_sin_fp32, a.rot_dim, w);
    wait_for_prerequisite_grid();
    return rotate_unit<T, RV, NEOX>(row, off, a.rot_dim, w, cs);
  }
}

// The work of unit u of token t (fused_unit's decoded index; a gap of the padded order never
// reaches it).
template <typename T, CacheDType C, int VEC, bool NEOX, bool ROLES, int COPY = 1, bool HALF = false,
          bool PACKED = false>
__device__ __forceinline__ void fused_unit_at(const RopeKvArgs& a, const WorkPlan& p,
                                              const RoleMajorSplit& split, const std::int64_t t,
                                              const int u) {
  using CacheT = typename CacheElem<T, C>::type;
  static_assert(
      !HALF || (ROLES && neox_half_units(NEOX ? RopeStyle::neox : RopeStyle::gptj, C, VEC)),
      "half units: neox, role-major, fp8 caches, 8 elements a chunk");
  static_assert(!PACKED || (NEOX && !HALF && sizeof(T) == 2),
                "packed cos/sin: neox units of whole chunks, 16-bit q/k");
  constexpr int RV = HALF ? VEC / 2 : VEC;  // elements per rotation chunk
  if (u < p.q_end) {
    // query: [T, Hq, Dq] -> query_out (or in place)
    // w: the unit within the head's row (row-major) or within its rotation or pass-through units
    std::uint32_t hq, wq;
    if constexpr (ROLES) {
      if (u < split.q_rot_end)
        split.per_q_rot.divmod(static_cast<std::uint32_t>(u), hq, wq);
      else
        split.per_q_pass.divmod(static_cast<std::uint32_t>(u - split.q_rot_end), hq, wq);
    } else {
      p.per_q_row.divmod(static_cast<std::uint32_t>(u), hq, wq);
    }
    const int h = static_cast<int>(hq), w = static_cast<int>(wq);
    const T* src = static_cast<const T*>(a.query.data) + t * a.query.token_stride +
                   std::int64_t{h} * a.query.head_stride;
    T* dst = a.query_out.data == nullptr
                 ? const_cast<T*>(src)
                 : static_cast<T*>(a.query_out.data) + t * a.query_out.token_stride +
                       std::int64_t{h} * a.query_out.head_stride;
    if (ROLES ? u < split.q_rot_end : w < p.q_rot) {
      const RotatedChunks<T, RV> r =
          read_wait_rotate<T, RV, NEOX, PACKED>(a, t, src, a.q_rot_offset, w);
#pragma unroll
      for (int i = 0; i < (NEOX ? 2 : 1); ++i)
        store_vec<T, RV>(dst + r.dim[i], r.chunk[i]);
    } else {
      wait_for_prerequisite_grid();
      const int d = passthrough_dim(ROLES ? w : w - p.q_rot, VEC, a.q_rot_offset, a.rot_dim);
      store_vec<T, VEC>(dst + d, load_vec<T, VEC>(src + d));
    }
    return;
  }

  // Only the first Tc tokens own a slot; -1 (or no mapping) means nothing goes to the cache.
  // Slots are below 2^31 (the launcher refuses larger caches). With an fp8 cache the slot is
  // kept in 32 bits: the bf16 neox kernel goes from 52 to 48 registers (10 CTAs per SM instead
  // of 9) without a spill, 2-5 % faster at 2k-16k tokens (results/NOTES.md, session 9). Auto
  // caches keep 64 bits: there the same change takes the strided neox kernel to 48 registers,
  // which three A/Bs found costs full rotary 2-7 %.
  using Slot = std::conditional_t<C == CacheDType::auto_, std::int64_t, int>;
  const Slot slot = (a.slot_mapping != nullptr && t < a.num_cache_tokens)
                        ? static_cast<Slot>(a.slot_mapping[t])
                        : Slot{-1};

  if (u < p.k_end) {
    // key: [T, Hkv, Dk] -> rotated in place (unless !write_back_key) and into key_cache
    std::uint32_t hk, wk;
    if constexpr (ROLES) {
      if (u < split.k_rot_end)
        split.per_k_rot.divmod(static_cast<std::uint32_t>(u - p.q_end), hk, wk);
      else
        split.per_k_pass.divmod(static_cast<std::uint32_t>(u - split.k_rot_end), hk, wk);
    } else {
      p.per_k_row.divmod(static_cast<std::uint32_t>(u - p.q_end), hk, wk);
    }
    const int h = static_cast<int>(hk), w = static_cast<int>(wk);
    T* row =
        static_cast<T*>(a.key.data) + t * a.key.token_stride + std::int64_t{h} * a.key.head_stride;
    // The scale is read only for a token with a slot: RoPE-only calls may pass no scales at all.
    const float scale =
        C == CacheDType::auto_ || slot < 0 ? 1.f : a.k_scale[h * a.scale_head_stride];
    if (ROLES ? u < split.k_rot_end : w < p.k_rot) {
      const RotatedChunks<T, RV> r = read_wait_rotate<T, RV, NEOX, PACKED>(a, t, row, 0, w);
#pragma unroll
      for (int i = 0; i < (NEOX ? 2 : 1); ++i) {
        if (a.write_back_key) store_vec<T, RV>(row + r.dim[i], r.chunk[i]);
        if (slot >= 0)
          store_cache_chunk<T, C, RV>(plan_cache_entry<CacheT>(a.key_cache, p, slot, h, r.dim[i]),
                                      r.chunk[i], scale);
      }
    } else {
      wait_for_prerequisite_grid();
      // The pass-through chunk (ROLES ? w : w - p.k_rot) is written out where it is used: named
      // once above the slot test, it moved ptxas's schedule of 44 measured row-major kernels.
      if (slot >= 0) {
        if constexpr (COPY == 1) {
          const int d = passthrough_dim(ROLES ? w : w - p.k_rot, VEC, 0, a.rot_dim);
          store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.key_cache, p, slot, h, d),
                                       load_vec<T, VEC>(row + d), scale);
        } else {  // chunks c and c + k_pass: both loads before either store
          const int d0 = passthrough_dim(ROLES ? w : w - p.k_rot, VEC, 0, a.rot_dim);
          const int d1 = passthrough_dim((ROLES ? w : w - p.k_rot) + p.k_pass, VEC, 0, a.rot_dim);
          const Vec<T, VEC> x0 = load_vec<T, VEC>(row + d0), x1 = load_vec<T, VEC>(row + d1);
          store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.key_cache, p, slot, h, d0), x0,
                                       scale);
          store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.key_cache, p, slot, h, d1), x1,
                                       scale);
        }
      }
    }
    return;
  }

  // value: [Tc, Hkv, Dv] -> value_cache
  std::uint32_t hv, wv;
  p.per_v_row.divmod(static_cast<std::uint32_t>(u - p.k_end), hv, wv);
  const int h = static_cast<int>(hv);
  const float scale = C == CacheDType::auto_ || slot < 0 ? 1.f : a.v_scale[h * a.scale_head_stride];
  wait_for_prerequisite_grid();
  if (slot < 0) return;
  const int d = static_cast<int>(wv) * VEC;
  const T* row = static_cast<const T*>(a.value.data) + t * a.value.token_stride +
                 std::int64_t{h} * a.value.head_stride;
  if constexpr (COPY == 1) {
    store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.value_cache, p, slot, h, d),
                                 load_vec<T, VEC>(row + d), scale);
  } else {  // chunks c and c + v_units
    const int d1 = d + p.v_units * VEC;
    const Vec<T, VEC> x0 = load_vec<T, VEC>(row + d), x1 = load_vec<T, VEC>(row + d1);
    store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.value_cache, p, slot, h, d), x0, scale);
    store_cache_chunk<T, C, VEC>(plan_cache_entry<CacheT>(a.value_cache, p, slot, h, d1), x1,
                                 scale);
  }
}

// The work of unit `gid` (< total_units). Every path first reads what does not come from the
// previous kernel in the stream (position and cos/sin entries, slot, scale), then waits for that
// kernel (a no-op unless launched with PDL), then reads q/k/v and writes. Every path waits, so
// this grid never completes before the one it depends on. ROLES: the token's units are in
// role-major order rather than row-major (work_plan.h, role_major_units). HALF: neox rotation
// units of half a chunk (neox_half_units, work_plan.h), with a plan made for them. PACKED: neox
// units hold their cos/sin entries in the q/k dtype (a launch whose table is in that dtype).
template <typename T, CacheDType C, int VEC, bool NEOX, bool ROLES, int COPY = 1, bool HALF = false,
          bool PACKED = false>
__device__ __forceinline__ void fused_unit(const RopeKvArgs& a, const WorkPlan& p,
                                           const RoleMajorSplit& split,
                                           const std::int64_t total_units, const std::int64_t gid) {
  std::int64_t t;
  int u;
  if constexpr (ROLES) {
    if (split.padded_units_per_token > 0) {
      // Warp-aligned segments: the padded index, then the compact one; gaps idle.
      token_and_unit(gid, total_units, split.per_padded_token, split.padded_units_per_token, t, u);
      // The segment holding u (constant indices only: an indexed parameter array would be
      // copied to the stack), and the units of the segments before it.
      int start = 0, len = split.seg_len[0], compact = 0;
#pragma unroll
      for (int i = 1; i < 5; ++i) {
        if (u >= split.seg_start[i]) {
          compact += split.seg_len[i - 1];
          start = split.seg_start[i];
          len = split.seg_len[i];
        }
      }
      const int in_seg = u - start;
      if (in_seg >= len) return;  // a gap: no unit
      u = compact + in_seg;
    } else {
      token_and_unit(gid, total_units, p.per_token, p.units_per_token, t, u);
    }
  } else {
    token_and_unit(gid, total_units, p.per_token, p.units_per_token, t, u);
  }

  fused_unit_at<T, C, VEC, NEOX, ROLES, COPY, HALF, PACKED>(a, p, split, t, u);
}

// The work of lane `gid` in the row-warp layout (work_plan.h, RowWarpPlan), from the parameters of
// row_warp_params.h. The same order of reads as fused_unit: slot, cos/sin and scale, then the wait
// for the previous grid, then q/k/v. What a lane reads before the wait depends on no other load
// but the position: the scale is read whatever the slot, and a v lane loads its chunk before it
// looks at the slot (a chunk it then does not store), so neither waits for the slot's round trip.
// Every lane of a q or k warp reaches the shuffle; idle lanes (past the warp's whole rows, or past
// the last head) load head 0's chunk there, and store nothing.
// The layout is launched within one wave of resident CTAs only (far below 2^31 lanes), so the
// token split is the 32-bit divider.
template <typename T, CacheDType C, int VEC>
__device__ __forceinline__ void row_warp_lane(const RowWarpHead& head, const RowWarpRoles& roles,
                                              const std::uint32_t gid) {
  using CacheT = typename CacheElem<T, C>::type;
  std::uint32_t tq, ur;
  head.per_token.divmod(gid, tq, ur);
  const std::int64_t t = tq;
  const int u = static_cast<int>(ur);
  const int warp = u >> 5, lane = u & 31;
  using Slot = std::conditional_t<C == CacheDType::auto_, std::int64_t, int>;
  const bool cached_token = head.slot_mapping != nullptr && t < head.num_cache_tokens;
  const Slot slot = cached_token ? static_cast<Slot>(head.slot_mapping[t]) : Slot{-1};
  const int role = warp >= head.qk_warps ? 2 : warp >= head.q_warps ? 1 : 0;
  const RowWarpRole& r = roles.role[role];

  if (role == 2) {  // v: one chunk a lane
    const int vu = (warp - head.qk_warps) * 32 + lane;
    // Only cached tokens have a v row ([Tc, Hkv, Dv]).
    const bool active = vu < r.rows && cached_token;
    std::uint32_t hv = 0, wv = 0;
    if (active) r.per_row.divmod(static_cast<std::uint32_t>(vu), hv, wv);
    const int h = static_cast<int>(hv);
    const int d = static_cast<int>(wv) * VEC;
    const float scale =
        C == CacheDType::auto_ || !active ? 1.f : r.scale[h * head.scale_head_stride];
    wait_for_prerequisite_grid();
    if (!active) return;
    const Vec<T, VEC> x = load_vec<T, VEC>(static_cast<const T*>(r.src) + t * r.src_token_stride +
                                           std::int64_t{h} * r.src_head_stride + d);
    if (slot < 0) return;
    store_cache_chunk<T, C, VEC>(role_cache_entry<CacheT>(r, slot, h, d), x, scale);
    return;
  }

  std::uint32_t row_in_warp, c;
  r.per_row.divmod(static_cast<std::uint32_t>(lane), row_in_warp, c);
  const int chunks = static_cast<int>(r.per_row.divisor);
  const int h = (role == 0 ? warp : warp - head.q_warps) * static_cast<int>(r.per_row.div(32)) +
                static_cast<int>(row_in_warp);
  const bool active = (static_cast<int>(row_in_warp) + 1) * chunks <= 32 && h < r.rows;
  const int half_chunks = chunks / 2;
  const bool first_half = static_cast<int>(c) < half_chunks;
  const int pair = first_half ? static_cast<int>(c) : static_cast<int>(c) - half_chunks;
  const int d = static_cast<int>(c) * VEC;  // this lane's dim in the row
  // Its partner: the same pair index in the other half of the row; idle lanes read any lane.
  const int partner = first_half ? lane + half_chunks : lane - half_chunks;

  // cos/sin in the q/k dtype (row_warp_layout leaves fp32 tables to the other kernels), held as
  // loaded: half the registers of floats. Idle lanes load too, from addresses that exist (their
  // pair index is inside the row): a conditional Vec was kept in local memory for bf16.
  const T* cs_row = static_cast<const T*>(r.cos_sin) + head.positions[t] * r.cos_sin_stride;
  const Vec<T, VEC> cos_raw = load_vec<T, VEC>(cs_row + pair * VEC);
  const Vec<T, VEC> sin_raw = load_vec<T, VEC>(cs_row + half_chunks * VEC + pair * VEC);
  const float scale = C == CacheDType::auto_ || r.scale == nullptr || !active
                          ? 1.f
                          : r.scale[h * head.scale_head_stride];
  const int hs = active ? h : 0;
  const T* src = static_cast<const T*>(r.src) + t * r.src_token_stride +
                 std::int64_t{hs} * r.src_head_stride + d;
  wait_for_prerequisite_grid();
  const Vec<T, VEC> rotated =
      rotate_row_warp_chunk<T, VEC>(load_vec<T, VEC>(src), partner, first_half, cos_raw, sin_raw);
  if (!active) return;
  if (r.out != nullptr)
    store_vec<T, VEC>(
        static_cast<T*>(r.out) + t * r.out_token_stride + std::int64_t{h} * r.out_head_stride + d,
        rotated);
  if (role == 0 || slot < 0) return;
  store_cache_chunk<T, C, VEC>(role_cache_entry<CacheT>(r, slot, h, d), rotated, scale);
}

// The row-warp layout's kernel (work_plan.h, RowWarpPlan): a flat grid, launched only where it
// fills at most half of one wave of resident CTAs (decode sizes). A launch's lanes are whole warps,
// so the lanes of a warp run together. 16 CTAs per SM (32 registers). Its parameters are the
// compact ones of row_warp_params.h, not RopeKvArgs.
template <typename T, CacheDType C, int VEC>
__global__ void __launch_bounds__(kFusedThreads, 16)
    rope_kv_fused_row_warp_kernel(const RowWarpHead head,
                                  const __grid_constant__ RowWarpRoles roles) {
  allow_dependent_grid_launch();
  const std::uint32_t gid = blockIdx.x * kFusedThreads + threadIdx.x;
  if (gid < head.total_lanes) row_warp_lane<T, C, VEC>(head, roles, gid);
}

// The work of lane `gid` of a decode role-major launch, from the parameters of
// decode_role_params.h: fused_unit's work in role-major order with every segment padded to whole
// warps (so that a warp holds one role), COPY 1. The same order of reads: the position and its
// cos/sin entries, the slot and the scale, then the wait for the previous grid, then q/k/v. The
// scale is read whatever the slot (its pointer is set only where an fp8 cache is written), and a
// copy lane loads its chunk before it looks at the slot (tokens past the cached ones load
// nothing), so neither waits for the slot's round trip. HALF: neox rotation units of half a chunk
// (neox_half_units, work_plan.h), with the plan made for them.
template <typename T, CacheDType C, int VEC, bool NEOX, bool HALF>
__device__ __forceinline__ void decode_role_lane(const DecodeRoleHead& head,
                                                 const DecodeRoles& roles,
                                                 const std::uint32_t gid) {
  using CacheT = typename CacheElem<T, C>::type;
  constexpr int RV = HALF ? VEC / 2 : VEC;  // elements per rotation chunk
  std::uint32_t tq, ur;
  head.per_token.divmod(gid, tq, ur);
  const std::int64_t t = tq;
  const int u = static_cast<int>(ur);
  // The segment holding u (constant indices only: an indexed parameter array would be copied to
  // the stack), and its first lane.
  int seg = 0, start = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if (u >= head.segment_start[i]) {
      seg = i + 1;
      start = head.segment_start[i];
    }
  }
  const DecodeRole& r = roles.segment[seg];
  const int in_seg = u - start;
  if (in_seg >= r.units) return;  // a gap: no unit
  std::uint32_t hr, wr;
  r.per_row.divmod(static_cast<std::uint32_t>(in_seg), hr, wr);
  const int h = static_cast<int>(hr), w = static_cast<int>(wr);
  const T* src =
      static_cast<const T*>(r.src) + t * r.src_token_stride + std::int64_t{h} * r.src_head_stride;
  const auto table_row = [&] {
    return static_cast<const void*>(static_cast<const char*>(r.cos_sin) +
                                    head.positions[t] * r.cos_sin_stride *
                                        (r.cos_sin_fp32 != 0 ? 4 : sizeof(T)));
  };
  const auto out_row = [&] {
    return static_cast<T*>(r.out) + t * r.out_token_stride + std::int64_t{h} * r.out_head_stride;
  };

  if (seg == q_rotation || seg == q_passthrough) {  // query: [T, Hq, Dq] -> query_out or in place
    if (seg == q_rotation) {
      const UnitCosSin<RV, NEOX> cs =
          load_unit_cos_sin<T, RV, NEOX>(table_row(), r.cos_sin_fp32 != 0, r.rot_dim, w);
      wait_for_prerequisite_grid();
      const RotatedChunks<T, RV> rc = rotate_unit<T, RV, NEOX>(src, r.rot_offset, r.rot_dim, w, cs);
      T* dst = out_row();
#pragma unroll
      for (int i = 0; i < (NEOX ? 2 : 1); ++i)
        store_vec<T, RV>(dst + rc.dim[i], rc.chunk[i]);
    } else {
      wait_for_prerequisite_grid();
      const int d = passthrough_dim(w, VEC, r.rot_offset, r.rot_dim);
      store_vec<T, VEC>(out_row() + d, load_vec<T, VEC>(src + d));
    }
    return;
  }

  // Only the first Tc tokens own a slot; -1 (or no mapping) means nothing goes to the cache. With
  // an fp8 cache the slot is kept in 32 bits, as in fused_unit.
  using Slot = std::conditional_t<C == CacheDType::auto_, std::int64_t, int>;
  const bool cached_token = head.slot_mapping != nullptr && t < head.num_cache_tokens;
  const Slot slot = cached_token ? static_cast<Slot>(head.slot_mapping[t]) : Slot{-1};
  const float scale =
      C == CacheDType::auto_ || r.scale == nullptr ? 1.f : r.scale[h * head.scale_head_stride];

  if (seg == k_rotation) {  // key: rotated in place (unless !write_back_key) and into key_cache
    const UnitCosSin<RV, NEOX> cs =
        load_unit_cos_sin<T, RV, NEOX>(table_row(), r.cos_sin_fp32 != 0, r.rot_dim, w);
    wait_for_prerequisite_grid();
    const RotatedChunks<T, RV> rc = rotate_unit<T, RV, NEOX>(src, 0, r.rot_dim, w, cs);
#pragma unroll
    for (int i = 0; i < (NEOX ? 2 : 1); ++i) {
      if (r.out != nullptr) store_vec<T, RV>(out_row() + rc.dim[i], rc.chunk[i]);
      if (slot >= 0)
        store_cache_chunk<T, C, RV>(role_cache_entry<CacheT>(r, slot, h, rc.dim[i]), rc.chunk[i],
                                    scale);
    }
    return;
  }

  // k pass-through and v ([Tc, Hkv, Dv]: only cached tokens have a row): one chunk each.
  wait_for_prerequisite_grid();
  if (!cached_token) return;
  const int d = seg == k_passthrough ? passthrough_dim(w, VEC, 0, r.rot_dim) : w * VEC;
  const Vec<T, VEC> x = load_vec<T, VEC>(src + d);
  if (slot < 0) return;
  store_cache_chunk<T, C, VEC>(role_cache_entry<CacheT>(r, slot, h, d), x, scale);
}

// The decode role-major kernel (FusedKernel::decode_roles, and decode_half with HALF): a flat
// grid of whole-warp segments, launched only where it fills at most half of one wave of resident
// CTAs. Its parameters are the compact ones of decode_role_params.h, not RopeKvArgs.
template <typename T, CacheDType C, int VEC, bool NEOX, bool HALF>
__global__ void RKV_FUSED_LAUNCH_BOUNDS rope_kv_fused_decode_roles_kernel(
    const DecodeRoleHead head, const __grid_constant__ DecodeRoles roles) {
  allow_dependent_grid_launch();
  const std::uint32_t gid = blockIdx.x * kFusedThreads + threadIdx.x;
  if (gid < head.total_lanes) decode_role_lane<T, C, VEC, NEOX, HALF>(head, roles, gid);
}

// ROTATE (strided only): on each pass the CTA's warps take its 128 units a warp further round, so
// that no warp keeps the same slots of a token for the whole launch (strided_warps_pinned,
// work_plan.h). The CTA's units of a pass are the same either way. PACKED: as fused_unit's.
template <typename T, CacheDType C, int VEC, bool NEOX, bool STRIDE, bool ROLES,
          bool ROTATE = false, bool PACKED = false>
__global__ void RKV_FUSED_LAUNCH_BOUNDS rope_kv_fused_kernel(const RopeKvArgs a, const WorkPlan p,
                                                             const std::int64_t total_units,
                                                             const RoleMajorSplit split) {
  static_assert(!ROTATE || STRIDE, "only the strided loop turns its warps");
  // The kernel after this one may be scheduled as soon as every CTA of this one runs: it waits
  // (griddepcontrol.wait) for this grid to complete before reading anything it wrote, and this
  // grid's CTAs are all resident by then, so an early start takes no SM slot from them and
  // overlaps its launch and prologue with this kernel's memory round trips. A no-op without PDL.
  allow_dependent_grid_launch();
  const std::int64_t first = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x;
  if constexpr (ROTATE) {
    constexpr int kWarps = kFusedThreads / 32;
    static_assert((kWarps & (kWarps - 1)) == 0, "a power of two of warps");
    const std::int64_t stride = std::int64_t{gridDim.x} * kFusedThreads;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    int quarter = static_cast<int>(threadIdx.x) / 32;
    for (std::int64_t cta_first = std::int64_t{blockIdx.x} * kFusedThreads; cta_first < total_units;
         cta_first += stride) {
      const std::int64_t gid = cta_first + quarter * 32 + lane;
      if (gid < total_units)
        fused_unit<T, C, VEC, NEOX, ROLES, 1, false, PACKED>(a, p, split, total_units, gid);
      quarter = (quarter + 1) & (kWarps - 1);
    }
  } else if constexpr (STRIDE) {
    const std::int64_t stride = std::int64_t{gridDim.x} * kFusedThreads;
    for (std::int64_t gid = first; gid < total_units; gid += stride)
      fused_unit<T, C, VEC, NEOX, ROLES, 1, false, PACKED>(a, p, split, total_units, gid);
  } else if (first < total_units) {
    fused_unit<T, C, VEC, NEOX, ROLES, 1, false, PACKED>(a, p, split, total_units, first);
  }
}

// The phased kernel (FusedKernel::phased): the strided loop over a row-major launch's units in
// phases (PhaseSplit, work_plan.h), where its warps would otherwise mostly straddle roles
// (row_major_warps_mix_roles). On the strided kernel's grid, or on the flat one (one pass a
// thread); work indices below 2^31 and the grid's stride below 2^32 minus them (plan_fused_launch
// checks).
template <typename T, CacheDType C, int VEC, bool NEOX>
__global__ void RKV_FUSED_LAUNCH_BOUNDS rope_kv_fused_phased_kernel(const RopeKvArgs a,
                                                                    const WorkPlan p,
                                                                    const std::int64_t total_units,
                                                                    const RoleMajorSplit split,
                                                                    const PhaseSplit ph) {
  allow_dependent_grid_launch();
  const std::uint32_t stride = gridDim.x * kFusedThreads;
  for (std::uint32_t g = blockIdx.x * kFusedThreads + threadIdx.x; g < total_units; g += stride) {
    std::uint32_t t, u;
    phase_unit(ph, g, t, u);
    fused_unit_at<T, C, VEC, NEOX, false>(a, p, split, std::int64_t{t}, static_cast<int>(u));
  }
}

// The flat role-major kernel with neox rotation units of half a chunk, for fp8 caches at 8
// elements a chunk (neox_half_units, work_plan.h): 36 registers against the whole-chunk
// kernel's 48, 12 CTAs per SM instead of 10. Decode launches of few CTAs a SM take
// rope_kv_fused_decode_roles_kernel with HALF instead (fused_launch.cpp, decode_role_warps).
template <typename T, CacheDType C>
__global__ void RKV_FUSED_LAUNCH_BOUNDS rope_kv_fused_half_kernel(const RopeKvArgs a,
                                                                  const WorkPlan p,
                                                                  const std::int64_t total_units,
                                                                  const RoleMajorSplit split) {
  allow_dependent_grid_launch();
  const std::int64_t gid = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x;
  if (gid < total_units) fused_unit<T, C, 8, true, true, 1, true>(a, p, split, total_units, gid);
}

// The same kernel bounded to 16 CTAs per SM (32 registers, no spill), for the prefill route
// (neox_half_units_pay): 4-9 % faster there at 16k-65k tokens (session 19's A/B). Decode launches
// keep the unbounded one, where the bound moved nothing beyond +-2 % (session 18, round 4).
template <typename T, CacheDType C>
__global__ void __launch_bounds__(kFusedThreads, 16)
    rope_kv_fused_half_prefill_kernel(const RopeKvArgs a, const WorkPlan p,
                                      const std::int64_t total_units, const RoleMajorSplit split) {
  allow_dependent_grid_launch();
  const std::int64_t gid = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x;
  if (gid < total_units) fused_unit<T, C, 8, true, true, 1, true>(a, p, split, total_units, gid);
}

// The strided kernel with two chunks per copy unit: for MLA with few query heads, whose 512-wide
// latent makes copies a large share of the units, two independent loads in flight per thread
// instead of one (mla:16 4-15 % slower without it at 2k-65k tokens; where it is used:
// wide_copy_units, work_plan.h; results/NOTES.md, sessions 7 and 8).
// Also in role-major order (ROLES) where copies dominate (role_major_copies_dominate).
template <typename T, CacheDType C, int VEC, bool NEOX, bool ROLES>
__global__ void RKV_FUSED_LAUNCH_BOUNDS rope_kv_fused_wide_kernel(const RopeKvArgs a,
                                                                  const WorkPlan p,
                                                                  const std::int64_t total_units,
                                                                  const RoleMajorSplit split) {
  allow_dependent_grid_launch();
  const std::int64_t stride = std::int64_t{gridDim.x} * kFusedThreads;
  for (std::int64_t gid = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x; gid < total_units;
       gid += stride)
    fused_unit<T, C, VEC, NEOX, ROLES, 2>(a, p, split, total_units, gid);
}

// The flat unit kernel with two chunks per copy unit, for fp8 caches (fp8_flat_wide_pays,
// fused_launch.cpp): one unit a thread, and a copy unit's two loads in flight together. Bounded to
// the flat kernels' occupancy (bf16 neox 48 registers with an 8-byte spill, gpt-j 32 with 24):
// unbounded (54 / 39 registers, 9 / 12 CTAs a SM) it was 1-3 % slower on MHA (session 23).
template <typename T, CacheDType C, int VEC, bool NEOX, bool ROLES>
__global__ void __launch_bounds__(kFusedThreads, NEOX ? 10 : 16)
    rope_kv_fused_flat_wide_kernel(const RopeKvArgs a, const WorkPlan p,
                                   const std::int64_t total_units, const RoleMajorSplit split) {
  allow_dependent_grid_launch();
  const std::int64_t gid = std::int64_t{blockIdx.x} * kFusedThreads + threadIdx.x;
  if (gid < total_units) fused_unit<T, C, VEC, NEOX, ROLES, 2>(a, p, split, total_units, gid);
}

// CTAs of `kernel` that fit on one SM at once; 0 if the runtime cannot say.
template <typename Kernel>
int ctas_per_sm(Kernel kernel) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kFusedThreads, 0) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return per_sm;
}

// The same for the strided grids, at most RKV_STRIDED_MAX_CTAS_PER_SM when that is set.
template <typename Kernel>
int strided_ctas_per_sm(Kernel kernel) {
  const int per_sm = ctas_per_sm(kernel);
  if (RKV_STRIDED_MAX_CTAS_PER_SM > 0 && per_sm > RKV_STRIDED_MAX_CTAS_PER_SM)
    return RKV_STRIDED_MAX_CTAS_PER_SM;
  return per_sm;
}

// The occupancy of this instantiation's kernels (asked once: it does not change within a process
// for one architecture) with the current device's SM count (asked every call). Only the
// instantiations the launch can pick exist: the row-warp kernel for neox, half units where
// neox_half_units says, the strided kernels (gpt-j's also turning its warps, row-major only:
// strided_warps_pinned; with a 16-bit cache also in phases, row-major only:
// row_major_warps_mix_roles), the wide ones with 16-bit caches, and role-major order
// for neox or fp8 caches (role_major_units; gpt-j's decode role warps excepted), and the token-warp
// kernel (token_warp_pays: fp8 caches, and 16-bit caches with full rows). The packed-cos/sin flat
// kernel (packs_flat) is not asked: the flat grid needs no occupancy, so a launch's plan is the
// same with the table packed or not.
template <typename T, CacheDType C, int V, bool N>
FusedOccupancy fused_occupancy() {
  static const FusedOccupancy per_sm = [] {
    FusedOccupancy o;
    if constexpr (N) o.row_warp = ctas_per_sm(rope_kv_fused_row_warp_kernel<T, C, V>);
    if constexpr (neox_half_units(N ? RopeStyle::neox : RopeStyle::gptj, C, V))
      o.half = ctas_per_sm(rope_kv_fused_half_kernel<T, C>);
    o.decode_roles = ctas_per_sm(rope_kv_fused_kernel<T, C, V, N, false, true>);
    o.token_warp = ctas_per_sm(rope_kv_fused_token_warp_kernel<T, C, V, N>);
    o.strided[0] = strided_ctas_per_sm(rope_kv_fused_kernel<T, C, V, N, true, false>);
    if constexpr (!N)
      o.strided_rotating = strided_ctas_per_sm(rope_kv_fused_kernel<T, C, V, N, true, false, true>);
    if constexpr (C == CacheDType::auto_)
      o.phased = strided_ctas_per_sm(rope_kv_fused_phased_kernel<T, C, V, N>);
    if constexpr (N)
      o.strided[1] = strided_ctas_per_sm(rope_kv_fused_kernel<T, C, V, N, true, true>);
    if constexpr (C == CacheDType::auto_) {
      o.wide[0] = strided_ctas_per_sm(rope_kv_fused_wide_kernel<T, C, V, N, false>);
      if constexpr (N) o.wide[1] = strided_ctas_per_sm(rope_kv_fused_wide_kernel<T, C, V, N, true>);
    } else {
      o.flat_wide[0] = ctas_per_sm(rope_kv_fused_flat_wide_kernel<T, C, V, N, false>);
      o.flat_wide[1] = ctas_per_sm(rope_kv_fused_flat_wide_kernel<T, C, V, N, true>);
    }
    return o;
  }();
  FusedOccupancy o = per_sm;
  o.sms = current_sm_count();
  return o;
}

// Whether a flat launch holds its neox units' cos/sin packed in the q/k dtype (P: dispatched for
// 16-bit q/k with the table in that dtype, dispatch_cos_sin_packing): row-major with a 16-bit cache
// only (round 58). The flat 40x8x80 bf16 launches gained 5.2-5.5 % with it at 16k-65k tokens (a
// 44 -> 38 register kernel) on an H100; fp8's packed kernels lost up to 4 % and the strided grid
// gained no more than 1.3 % (rounds 45 and 56), so every other kernel keeps the unpacked table.
template <bool P, bool R, CacheDType C>
constexpr bool packs_flat() {
  return P && !R && C == CacheDType::auto_;
}

// Launches what plan_fused_launch chose (fused_launch.h). A kernel this instantiation lacks is
// never chosen (fused_occupancy gives it no CTAs); asked for one anyway, it refuses.
template <typename T, CacheDType C, int V, bool N, bool P>
cudaError_t launch_fused(const RopeKvArgs& a, const FusedLaunch& l, cudaStream_t stream) {
  const unsigned grid = static_cast<unsigned>(l.ctas);
  const bool pdl = a.programmatic_dependent_launch;
  const auto unit_kernels = [&](auto roles) -> cudaError_t {
    constexpr bool R = decltype(roles)::value;
    // Gpt-j with a 16-bit cache has no strided or wide kernel in role-major order (fused_occupancy
    // gives them no CTAs), only the flat one of its decode role warps. A plan for one anyway is
    // refused below: run as row-major, its padded thread count would index tokens past the end
    // (a plan and a launcher out of step once put 16k-token MLA launches out of bounds;
    // results/NOTES.md, round 26).
    constexpr bool grids = !R || N || C != CacheDType::auto_;
    if constexpr (grids)
      if (l.kernel == FusedKernel::strided)
        return launch_kernel(rope_kv_fused_kernel<T, C, V, N, true, R>, grid, kFusedThreads, stream,
                             pdl, a, l.plan, l.threads, l.split);
    if constexpr (C != CacheDType::auto_)
      if (l.kernel == FusedKernel::flat_wide)
        return launch_kernel(rope_kv_fused_flat_wide_kernel<T, C, V, N, R>, grid, kFusedThreads,
                             stream, pdl, a, l.plan, l.threads, l.split);
    if constexpr (C == CacheDType::auto_ && grids)
      if (l.kernel == FusedKernel::wide)
        return launch_kernel(rope_kv_fused_wide_kernel<T, C, V, N, R>, grid, kFusedThreads, stream,
                             pdl, a, l.plan, l.threads, l.split);
    if (l.kernel == FusedKernel::flat)
      return launch_kernel(rope_kv_fused_kernel<T, C, V, N, false, R, false, packs_flat<P, R, C>()>,
                           grid, kFusedThreads, stream, pdl, a, l.plan, l.threads, l.split);
    return cudaErrorInvalidConfiguration;
  };
  switch (l.kernel) {
    case FusedKernel::too_large:
      return cudaErrorInvalidConfiguration;
    case FusedKernel::row_warp:
      if constexpr (N) {
        RowWarpHead head;
        RowWarpRoles roles;
        make_row_warp_params(a, l.plan, l.rows, l.threads, head, roles);
        return launch_kernel(rope_kv_fused_row_warp_kernel<T, C, V>, grid, kFusedThreads, stream,
                             pdl, head, roles);
      }
      break;
    case FusedKernel::decode_half:
    case FusedKernel::decode_roles: {
      const bool half = l.kernel == FusedKernel::decode_half;
      if (!l.compact) {
        if (!half)
          return launch_kernel(rope_kv_fused_kernel<T, C, V, N, false, true>, grid, kFusedThreads,
                               stream, pdl, a, l.plan, l.threads, l.split);
        if constexpr (neox_half_units(N ? RopeStyle::neox : RopeStyle::gptj, C, V))
          return launch_kernel(rope_kv_fused_half_kernel<T, C>, grid, kFusedThreads, stream, pdl, a,
                               l.plan, l.threads, l.split);
        break;
      }
      DecodeRoleHead head;
      DecodeRoles roles;
      make_decode_role_params(a, l.plan, l.split, l.threads, head, roles);
      if (!half)
        return launch_kernel(rope_kv_fused_decode_roles_kernel<T, C, V, N, false>, grid,
                             kFusedThreads, stream, pdl, head, roles);
      if constexpr (neox_half_units(N ? RopeStyle::neox : RopeStyle::gptj, C, V))
        return launch_kernel(rope_kv_fused_decode_roles_kernel<T, C, 8, true, true>, grid,
                             kFusedThreads, stream, pdl, head, roles);
      break;
    }
    case FusedKernel::prefill_half:
      if constexpr (neox_half_units(N ? RopeStyle::neox : RopeStyle::gptj, C, V))
        return launch_kernel(rope_kv_fused_half_prefill_kernel<T, C>, grid, kFusedThreads, stream,
                             pdl, a, l.plan, l.threads, l.split);
      break;
    case FusedKernel::phased:
      if constexpr (C == CacheDType::auto_)
        if (!l.roles)
          return launch_kernel(rope_kv_fused_phased_kernel<T, C, V, N>, grid, kFusedThreads, stream,
                               pdl, a, l.plan, l.threads, l.split, make_phase_split(a, l.plan));
      break;
    case FusedKernel::strided_rotating:
      if constexpr (!N)
        if (!l.roles)
          return launch_kernel(rope_kv_fused_kernel<T, C, V, N, true, false, true>, grid,
                               kFusedThreads, stream, pdl, a, l.plan, l.threads, l.split);
      break;
    case FusedKernel::token_warp:
      // Full rows of neox with the table in the q/k dtype hold it packed (round 63); the grid is
      // one warp a token either way, and the route is the unpacked kernel's (fused_occupancy).
      if constexpr (C != CacheDType::auto_)  // a 16-bit cache: full rows only (token_warp_pays)
        if (l.plan.k_pass > 0)
          return launch_kernel(rope_kv_fused_token_warp_kernel<T, C, V, N, true>, grid,
                               kFusedThreads, stream, pdl, a, l.plan);
      return launch_kernel(rope_kv_fused_token_warp_kernel<T, C, V, N, false, P>, grid,
                           kFusedThreads, stream, pdl, a, l.plan);
    case FusedKernel::wide:
    case FusedKernel::flat_wide:
    case FusedKernel::strided:
    case FusedKernel::flat:
      return l.roles ? unit_kernels(std::true_type{}) : unit_kernels(std::false_type{});
  }
  return cudaErrorInvalidConfiguration;
}

// Calls f(type tag, cache, vec, neox, packed), each a compile-time constant, for a's
// instantiation: the one dispatch both entry points share (dispatch.cuh).
template <typename F>
cudaError_t dispatch_fused(const RopeKvArgs& a, int vec, F&& f) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_cache(a.cache_dtype, [&](auto cache) {
      return dispatch_vec<T>(vec, [&](auto v) {
        return dispatch_style(a.style, [&](auto neox) {
          return dispatch_cos_sin_packing<T, decltype(neox)::value>(
              a.cos_sin_fp32, [&](auto packed) { return f(tag, cache, v, neox, packed); });
        });
      });
    });
  });
}

}  // namespace detail

cudaError_t rope_kv_fused(const RopeKvArgs& a, cudaStream_t stream) {
  using namespace detail;
  if (check_launch_args(a) != nullptr) return cudaErrorInvalidValue;
  if (a.num_tokens == 0) return cudaSuccess;
  const int vec = rope_kv_vector_elems(a);
  if (make_fused_plan(a, vec).units_per_token == 0) return cudaSuccess;
  return dispatch_fused(a, vec, [&](auto tag, auto cache, auto v, auto neox, auto packed) {
    using T = typename decltype(tag)::type;
    constexpr CacheDType C = decltype(cache)::value;
    constexpr int V = decltype(v)::value;
    constexpr bool N = decltype(neox)::value, P = decltype(packed)::value;
    return launch_fused<T, C, V, N, P>(a, plan_fused_launch(a, vec, fused_occupancy<T, C, V, N>()),
                                       stream);
  });
}

cudaError_t rope_kv_fused_launch(const RopeKvArgs& a, RopeKvFusedLaunch* launch) {
  using namespace detail;
  if (launch == nullptr || check_launch_args(a) != nullptr) return cudaErrorInvalidValue;
  *launch = RopeKvFusedLaunch{};
  const int vec = rope_kv_vector_elems(a);
  if (a.num_tokens == 0 || make_fused_plan(a, vec).units_per_token == 0) return cudaSuccess;
  // The packing (the last tag) leaves the plan as it is: fused_occupancy.
  return dispatch_fused(a, vec, [&](auto tag, auto cache, auto v, auto neox, auto) {
    using T = typename decltype(tag)::type;
    constexpr CacheDType C = decltype(cache)::value;
    constexpr int V = decltype(v)::value;
    constexpr bool N = decltype(neox)::value;
    const FusedLaunch l = plan_fused_launch(a, vec, fused_occupancy<T, C, V, N>());
    if (l.kernel == FusedKernel::too_large) return cudaErrorInvalidConfiguration;
    launch->kernel = fused_kernel_name(l.kernel);
    launch->role_major = l.roles;
    launch->compact = l.compact;
    launch->ctas = l.ctas;
    launch->threads = l.threads;
    return cudaSuccess;
  });
}

}  // namespace rkv
