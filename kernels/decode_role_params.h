// The decode role-major kernels' parameters, laid out for the constant cache as the row-warp
// kernel's are (row_warp_params.h says why). At decode sizes the plans the row-warp layout does not
// take (gpt-j, partial rotary, MLA) run role-major with each of a token's five segments (q
// rotation, q pass-through, k rotation, k pass-through, v) padded to whole warps. With RopeKvArgs,
// WorkPlan and RoleMajorSplit as parameters (560 bytes, nine lines) ptxas's schedule met four to
// five misses one after another before a lane's first load and two after the wait
// (results/NOTES.md, session 26). Here a lane reads the head, in the parameters' first line, to
// find its token and segment, then its segment's first line (the split of its units, its rows)
// before its first load. The second line (the cos/sin table, the cache, the fp8 scale) is read
// while the position's load is in flight, or on a copy lane with a 16-bit cache while its chunk's
// is; an fp8 copy lane reads it before its scale's load.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fast_divmod.h"
#include "rope_kv.h"
#include "work_plan.h"

namespace rkv {

// What every lane reads first: 48 bytes, the rest of the line the parameters start in.
struct DecodeRoleHead {
  const std::int64_t* positions = nullptr;
  const std::int64_t* slot_mapping = nullptr;  // null: nothing goes to the cache
  std::uint32_t total_lanes = 0;
  FastDivmod per_token;                 // a token's lanes (its units, segments padded to warps)
  std::uint16_t segment_start[4] = {};  // segments 1-4's first lane in a token (segment 0: 0)
  std::int32_t num_cache_tokens = 0;
  std::int32_t scale_head_stride = 0;
};
static_assert(sizeof(DecodeRoleHead) == 48, "the head fills the parameters' first line");

enum DecodeSegment : int { q_rotation = 0, q_passthrough, k_rotation, k_passthrough, v_copy };

// One segment's parameters, two lines. Row pointers are to token 0, head 0; strides in elements.
struct alignas(64) DecodeRole {
  // The first line: the split of the segment's units, the rows read and where they are written
  // back (q: query_out or query; k rotation: key where it is written back, else null), and the
  // rotary window a pass-through chunk steps over (q_rot_offset and rot_dim for q, 0 and rot_dim
  // for k), so that a copy lane's load needs nothing from the second line.
  const void* src = nullptr;
  std::int64_t src_token_stride = 0;
  void* out = nullptr;
  std::int64_t out_token_stride = 0;
  FastDivmod per_row;      // a row's units in this segment
  std::int32_t units = 0;  // the segment's units (heads x per_row); lanes past them idle
  std::int32_t src_head_stride = 0;
  std::int32_t out_head_stride = 0;
  std::uint16_t rot_dim = 0;
  std::uint16_t rot_offset = 0;
  std::uint8_t cos_sin_fp32 = 0;
  std::uint8_t unused[3] = {};
  // The second line: the cos/sin table (rotation segments), the cache and the fp8 scale (k and v).
  const void* cos_sin = nullptr;
  std::int64_t cos_sin_stride = 0;
  void* cache = nullptr;
  std::int64_t cache_block_stride = 0, cache_slot_stride = 0;
  const float* scale = nullptr;  // k and v with an fp8 cache and a slot mapping, else null
  FastDivmod per_block;
  std::int32_t cache_head_stride = 0;
};
static_assert(sizeof(DecodeRole) == 128, "a segment is two lines");
static_assert(offsetof(DecodeRole, cos_sin) == 64, "the second line starts with the table");

// Indexed by a lane's segment: read at a register offset (the kernel parameter is declared
// __grid_constant__ so that it is not copied).
struct DecodeRoles {
  DecodeRole segment[5];
};

// True when `a` and the split fit these fields: head strides in 32 bits, a token's lanes,
// rot_dim and q_rot_offset in 16. The launcher takes the decode role-major route only then.
bool decode_role_params_fit(const RopeKvArgs& a, const WorkPlan& p, const RoleMajorSplit& s);

// The parameters of a decode role-major launch of `lanes` lanes (a.num_tokens tokens) with plan
// `p` (for half units, the plan made for them) and split `s` (make_role_major_split(a, p, true)).
void make_decode_role_params(const RopeKvArgs& a, const WorkPlan& p, const RoleMajorSplit& s,
                             std::int64_t lanes, DecodeRoleHead& head, DecodeRoles& roles);

}  // namespace rkv
