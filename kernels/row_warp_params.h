// The row-warp kernel's parameters, laid out for the constant cache.
//
// A kernel reads its parameters through the SM's constant cache (64-byte lines). At decode sizes
// each CTA of the row-warp kernel has an SM to itself, so each line a lane reads is a miss, and
// a warp issues in order: a miss stalls it at the first instruction that uses the value. With
// RopeKvArgs, WorkPlan and RowWarpPlan as its parameters (480 bytes, eight lines) ptxas's schedule
// (sm_90) met four misses one after another on a k lane: the launch size, then the slot mapping,
// then the positions, and after the wait for the previous grid the key view (results/NOTES.md,
// session 25). Here a lane reads three lines: the head, in the line the parameters start in (with
// the memory descriptor), before its first loads; then its role's two lines, both fetched as soon
// as the role is known, while the position and slot loads are in flight.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fast_divmod.h"
#include "rope_kv.h"
#include "work_plan.h"

namespace rkv {

// What every lane reads first: 48 bytes, the rest of the line the parameters start in.
struct RowWarpHead {
  const std::int64_t* positions = nullptr;
  const std::int64_t* slot_mapping = nullptr;  // null: nothing goes to the cache
  std::uint32_t total_lanes = 0;
  FastDivmod per_token;                     // a token's lanes
  std::uint16_t q_warps = 0, qk_warps = 0;  // a token's q warps, and its q and k warps
  std::int32_t num_cache_tokens = 0;
  std::int32_t scale_head_stride = 0;
  std::int32_t unused = 0;
};
static_assert(sizeof(RowWarpHead) == 48, "the head fills the parameters' first line");

// One role's parameters (q, k or v), two lines. Pointers are to the role's token 0, head 0, with
// q's rotation offset folded in; strides in elements, as in RopeKvArgs. Each line holds something a
// lane needs before the wait (the first the row split, the second the cos/sin row's address), so
// both are fetched early, together.
struct alignas(64) RowWarpRole {
  // The first line: the row split, what the lane reads and where it writes it back.
  const void* src = nullptr;
  std::int64_t src_token_stride = 0;
  void* out = nullptr;  // q: query_out or query; k: key when written back, else null; v: null
  std::int64_t out_token_stride = 0;
  const float* scale = nullptr;  // k and v with an fp8 cache and a slot mapping, else null
  FastDivmod per_row;            // q and k: a rotated row's chunks; v: a row's chunks
  std::int32_t rows = 0;         // q and k: heads; v: lanes with a chunk (heads x chunks)
  std::int32_t src_head_stride = 0;
  std::int32_t out_head_stride = 0;
  // The second line: the cos/sin table (q and k) and the cache (k and v).
  const void* cos_sin = nullptr;
  std::int64_t cos_sin_stride = 0;
  void* cache = nullptr;
  std::int64_t cache_block_stride = 0, cache_slot_stride = 0;
  FastDivmod per_block;
  std::int32_t cache_head_stride = 0;
  std::int64_t unused = 0;
};
static_assert(sizeof(RowWarpRole) == 128, "a role is two lines");
static_assert(offsetof(RowWarpRole, cos_sin) == 64,
              "the second line starts with the cos/sin table");

// Indexed by the lane's role (0 q, 1 k, 2 v): the kernel reads a role's fields at a lane-dependent
// offset (LDC with a register index, the kernel parameter declared __grid_constant__ so that it is
// not copied), which lets ptxas issue them together as soon as the role is known.
struct RowWarpRoles {
  RowWarpRole role[3];
};

// True when `a` and the plan fit these fields: head strides and the warp counts in their narrower
// types. The launcher takes the row-warp layout only then (decode-size launches of real shapes
// always fit).
bool row_warp_params_fit(const RopeKvArgs& a, const RowWarpPlan& r);

// The parameters of a row-warp launch of `lanes` lanes (a.num_tokens tokens).
void make_row_warp_params(const RopeKvArgs& a, const WorkPlan& p, const RowWarpPlan& r,
                          std::int64_t lanes, RowWarpHead& head, RowWarpRoles& roles);

}  // namespace rkv
