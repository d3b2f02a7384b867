// make_row_warp_params and row_warp_params_fit (kernels/row_warp_params.h): the row-warp kernel's
// compact parameters carry every field of the call to the role that reads it, and the launcher
// leaves the layout to the other kernels where a field would not fit its narrower type. Host only.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "decode_call.h"
#include "fused_launch.h"
#include "h200_occupancy.h"
#include "row_warp_params.h"
#include "work_plan.h"

namespace rkv {
namespace {

struct Made {
  RowWarpHead head;
  RowWarpRoles roles;
  WorkPlan plan;
  RowWarpPlan rows;
};

Made make(const RopeKvArgs& a) {
  Made m;
  m.plan = make_fused_plan(a, 8);
  EXPECT_TRUE(row_warp_layout(a, m.plan));
  m.rows = make_row_warp_plan(a, m.plan);
  // Poison: every field must be written by make_row_warp_params.
  std::memset(static_cast<void*>(&m.head), 0xa5, sizeof(m.head));
  std::memset(static_cast<void*>(&m.roles), 0xa5, sizeof(m.roles));
  make_row_warp_params(a, m.plan, m.rows, a.num_tokens * m.rows.lanes_per_token, m.head, m.roles);
  return m;
}

TEST(RowWarpParams, EveryRoleGetsTheFieldsItReads) {
  const DecodeCall call;
  const Made m = make(call.a);
  // 8 chunks a row (64 / 8): 4 rows a warp; q 1 warp, k 1 warp, v 2 x 8 chunks = 1 warp.
  EXPECT_EQ(m.head.positions, call.positions.data());
  EXPECT_EQ(m.head.slot_mapping, call.slots.data());
  EXPECT_EQ(m.head.total_lanes, 3u * 96u);
  EXPECT_EQ(m.head.per_token.divisor, 96u);
  EXPECT_EQ(m.head.q_warps, 1);
  EXPECT_EQ(m.head.qk_warps, 2);
  EXPECT_EQ(m.head.num_cache_tokens, 2);
  EXPECT_EQ(m.head.scale_head_stride, 1);

  const RowWarpRole& q = m.roles.role[0];
  EXPECT_EQ(q.src, call.q.data());
  EXPECT_EQ(q.src_token_stride, 4 * 64);
  EXPECT_EQ(q.src_head_stride, 64);
  EXPECT_EQ(q.out, call.q_out.data());
  EXPECT_EQ(q.out_token_stride, 4 * 64 + 8);
  EXPECT_EQ(q.out_head_stride, 64);
  EXPECT_EQ(q.cos_sin, call.cos_sin.data());
  EXPECT_EQ(q.cos_sin_stride, 64);
  EXPECT_EQ(q.scale, nullptr);
  EXPECT_EQ(q.per_row.divisor, 8u);
  EXPECT_EQ(q.rows, 4);
  EXPECT_EQ(q.cache, nullptr);

  const RowWarpRole& k = m.roles.role[1];
  EXPECT_EQ(k.src, call.k.data());
  EXPECT_EQ(k.out, call.k.data());
  EXPECT_EQ(k.out_token_stride, 2 * 64);
  EXPECT_EQ(k.cos_sin, call.cos_sin.data());
  EXPECT_EQ(k.scale, &call.scales[0]);
  EXPECT_EQ(k.per_row.divisor, 8u);
  EXPECT_EQ(k.rows, 2);
  EXPECT_EQ(k.cache, call.k_cache.data());
  EXPECT_EQ(k.cache_block_stride, 16 * 2 * 64);
  EXPECT_EQ(k.cache_slot_stride, 2 * 64);
  EXPECT_EQ(k.cache_head_stride, 64);
  EXPECT_EQ(k.per_block.divisor, 16u);

  const RowWarpRole& v = m.roles.role[2];
  EXPECT_EQ(v.src, call.v.data());
  EXPECT_EQ(v.out, nullptr);
  EXPECT_EQ(v.scale, &call.scales[1]);
  EXPECT_EQ(v.per_row.divisor, 8u);
  EXPECT_EQ(v.rows, 2 * 8);
  EXPECT_EQ(v.cache, call.v_cache.data());
  EXPECT_EQ(v.per_block.divisor, 16u);
}

TEST(RowWarpParams, QueryOffsetInPlaceQueriesNoWriteBackAndNoCache) {
  DecodeCall call;
  call.a.query_out = {};
  call.a.write_back_key = false;
  call.a.q_rot_offset = 0;
  Made m = make(call.a);
  EXPECT_EQ(m.roles.role[0].out, call.q.data());  // rotated in place
  EXPECT_EQ(m.roles.role[0].out_token_stride, 4 * 64);
  EXPECT_EQ(m.roles.role[1].out, nullptr);  // k is not written back

  // RoPE only: no slot mapping reaches the kernel, and no scale is read (none need be passed).
  call.a.slot_mapping = nullptr;
  call.a.k_scale = call.a.v_scale = nullptr;
  m = make(call.a);
  EXPECT_EQ(m.head.slot_mapping, nullptr);
  EXPECT_EQ(m.roles.role[1].scale, nullptr);
  EXPECT_EQ(m.roles.role[1].cache, nullptr);
  EXPECT_EQ(m.roles.role[2].scale, nullptr);

  // A 16-bit cache reads no scale even where one is passed.
  DecodeCall auto_cache;
  auto_cache.a.cache_dtype = CacheDType::auto_;
  m = make(auto_cache.a);
  EXPECT_EQ(m.roles.role[1].scale, nullptr);
  EXPECT_EQ(m.roles.role[2].scale, nullptr);
}

TEST(RowWarpParams, TheRotationOffsetIsFoldedIntoTheQueryPointers) {
  DecodeCall call;
  call.a.q_head_size = 96;
  call.a.q_rot_offset = 32;
  call.a.query = {call.q.data(), 4 * 96, 96};
  call.a.query_out = {call.q_out.data(), 4 * 96, 96};
  const WorkPlan p = make_fused_plan(call.a, 8);
  const RowWarpPlan r = make_row_warp_plan(call.a, p);
  RowWarpHead head;
  RowWarpRoles roles;
  make_row_warp_params(call.a, p, r, 96, head, roles);
  EXPECT_EQ(roles.role[0].src, call.q.data() + 32);
  EXPECT_EQ(roles.role[0].out, call.q_out.data() + 32);
  EXPECT_EQ(roles.role[1].src, call.k.data());  // k rotates from dim 0
}

TEST(RowWarpParams, HeadStridesPastInt32AndWarpCountsPastUint16LeaveTheLayout) {
  DecodeCall call;
  const WorkPlan p = make_fused_plan(call.a, 8);
  const RowWarpPlan r = make_row_warp_plan(call.a, p);
  EXPECT_TRUE(row_warp_params_fit(call.a, r));
  const std::int64_t wide = std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
  for (int which = 0; which < 6; ++which) {
    RopeKvArgs a = call.a;
    std::int64_t* strides[6] = {&a.query.head_stride,     &a.query_out.head_stride,
                                &a.key.head_stride,       &a.value.head_stride,
                                &a.key_cache.head_stride, &a.value_cache.head_stride};
    *strides[which] = wide;
    EXPECT_FALSE(row_warp_params_fit(a, r)) << "stride " << which;
  }
  RowWarpPlan many = r;
  many.q_warps = 65000;
  many.k_warps = 536;
  EXPECT_FALSE(row_warp_params_fit(call.a, many));
  many.k_warps = 535;
  EXPECT_TRUE(row_warp_params_fit(call.a, many));

  // The launcher then takes another kernel for the same decode call.
  const FusedOccupancy o = h200_fp8(call.a.style);
  EXPECT_EQ(plan_fused_launch(call.a, 8, o).kernel, FusedKernel::row_warp);
  RopeKvArgs far = call.a;
  far.key.head_stride = wide;
  EXPECT_NE(plan_fused_launch(far, 8, o).kernel, FusedKernel::row_warp);
}

}  // namespace
}  // namespace rkv
