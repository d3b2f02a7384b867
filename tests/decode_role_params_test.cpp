// make_decode_role_params and decode_role_params_fit (kernels/decode_role_params.h): the decode
// role-major kernel's compact parameters carry every field of the call to the segment that reads
// it, with the split's segment starts and dividers, and the launcher takes them only up to a launch
// size and where every field fits its narrower type. Host only.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "decode_call.h"
#include "decode_role_params.h"
#include "fused_launch.h"
#include "h200_occupancy.h"
#include "work_plan.h"

namespace rkv {
namespace {

// DecodeCall with half of each 64-wide row rotated: per row (8 elements a chunk, neox) 2 rotation
// units and 4 pass-through chunks, so all five segments have units: q rotation 4 x 2, q
// pass-through 4 x 4 (query_out is set), k rotation 2 x 2, k pass-through 2 x 4, v 2 x 8.
DecodeCall half_rotary() {
  DecodeCall call;
  call.a.rot_dim = 32;
  return call;
}

struct Made {
  WorkPlan plan;
  RoleMajorSplit split;
  DecodeRoleHead head;
  DecodeRoles roles;
};

Made make(const RopeKvArgs& a) {
  Made m;
  m.plan = make_fused_plan(a, 8);
  m.split = make_role_major_split(a, m.plan, true);
  // Poison: every field must be written by make_decode_role_params.
  std::memset(static_cast<void*>(&m.head), 0xa5, sizeof(m.head));
  std::memset(static_cast<void*>(&m.roles), 0xa5, sizeof(m.roles));
  const std::int64_t lanes = a.num_tokens * launched_units_per_token(m.plan, m.split, true);
  make_decode_role_params(a, m.plan, m.split, lanes, m.head, m.roles);
  return m;
}

TEST(DecodeRoleParams, EverySegmentGetsTheFieldsItReads) {
  const DecodeCall call = half_rotary();
  const Made m = make(call.a);
  // Segments of 8, 16, 4, 8 and 16 units, each padded to a warp: 160 lanes a token.
  EXPECT_EQ(m.head.positions, call.positions.data());
  EXPECT_EQ(m.head.slot_mapping, call.slots.data());
  EXPECT_EQ(m.head.total_lanes, 3u * 160u);
  EXPECT_EQ(m.head.per_token.divisor, 160u);
  const std::uint16_t starts[4] = {32, 64, 96, 128};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(m.head.segment_start[i], starts[i]) << "segment " << i + 1;
  EXPECT_EQ(m.head.num_cache_tokens, 2);
  EXPECT_EQ(m.head.scale_head_stride, 1);

  const DecodeRole& qr = m.roles.segment[q_rotation];
  EXPECT_EQ(qr.src, call.q.data());
  EXPECT_EQ(qr.src_token_stride, 4 * 64);
  EXPECT_EQ(qr.src_head_stride, 64);
  EXPECT_EQ(qr.out, call.q_out.data());
  EXPECT_EQ(qr.out_token_stride, 4 * 64 + 8);
  EXPECT_EQ(qr.out_head_stride, 64);
  EXPECT_EQ(qr.per_row.divisor, 2u);
  EXPECT_EQ(qr.units, 8);
  EXPECT_EQ(qr.rot_dim, 32);
  EXPECT_EQ(qr.rot_offset, 0);
  EXPECT_EQ(qr.cos_sin, call.cos_sin.data());
  EXPECT_EQ(qr.cos_sin_stride, 64);
  EXPECT_EQ(qr.cos_sin_fp32, 0);
  EXPECT_EQ(qr.cache, nullptr);
  EXPECT_EQ(qr.scale, nullptr);

  const DecodeRole& qp = m.roles.segment[q_passthrough];
  EXPECT_EQ(qp.src, call.q.data());
  EXPECT_EQ(qp.out, call.q_out.data());
  EXPECT_EQ(qp.per_row.divisor, 4u);
  EXPECT_EQ(qp.units, 16);
  EXPECT_EQ(qp.rot_dim, 32);
  EXPECT_EQ(qp.cos_sin, nullptr);
  EXPECT_EQ(qp.cache, nullptr);

  const DecodeRole& kr = m.roles.segment[k_rotation];
  EXPECT_EQ(kr.src, call.k.data());
  EXPECT_EQ(kr.src_token_stride, 2 * 64);
  EXPECT_EQ(kr.out, call.k.data());  // written back
  EXPECT_EQ(kr.out_token_stride, 2 * 64);
  EXPECT_EQ(kr.per_row.divisor, 2u);
  EXPECT_EQ(kr.units, 4);
  EXPECT_EQ(kr.cos_sin, call.cos_sin.data());
  EXPECT_EQ(kr.cache, call.k_cache.data());
  EXPECT_EQ(kr.cache_block_stride, 16 * 2 * 64);
  EXPECT_EQ(kr.cache_slot_stride, 2 * 64);
  EXPECT_EQ(kr.cache_head_stride, 64);
  EXPECT_EQ(kr.per_block.divisor, 16u);
  EXPECT_EQ(kr.scale, &call.scales[0]);

  const DecodeRole& kp = m.roles.segment[k_passthrough];
  EXPECT_EQ(kp.src, call.k.data());
  EXPECT_EQ(kp.out, nullptr);
  EXPECT_EQ(kp.per_row.divisor, 4u);
  EXPECT_EQ(kp.units, 8);
  EXPECT_EQ(kp.rot_dim, 32);
  EXPECT_EQ(kp.rot_offset, 0);
  EXPECT_EQ(kp.cos_sin, nullptr);
  EXPECT_EQ(kp.cache, call.k_cache.data());
  EXPECT_EQ(kp.scale, &call.scales[0]);

  const DecodeRole& v = m.roles.segment[v_copy];
  EXPECT_EQ(v.src, call.v.data());
  EXPECT_EQ(v.src_token_stride, 2 * 64);
  EXPECT_EQ(v.out, nullptr);
  EXPECT_EQ(v.per_row.divisor, 8u);
  EXPECT_EQ(v.units, 16);
  EXPECT_EQ(v.cache, call.v_cache.data());
  EXPECT_EQ(v.per_block.divisor, 16u);
  EXPECT_EQ(v.scale, &call.scales[1]);
}

TEST(DecodeRoleParams, SegmentsOfWholeWarpsStartWhereTheOneBeforeEnds) {
  // 32 q heads and 8 kv heads of 128, rot = 64: 128, 256, 32, 64 and 128 units, all whole warps,
  // so the split does not pad and a token's lanes are its 608 units.
  DecodeCall call;
  call.a.num_q_heads = 32;
  call.a.num_kv_heads = 8;
  call.a.q_head_size = call.a.k_head_size = call.a.v_head_size = 128;
  call.a.rot_dim = 64;
  call.a.num_tokens = call.a.num_cache_tokens = 1;
  const Made m = make(call.a);
  EXPECT_EQ(m.split.padded_units_per_token, 0);
  EXPECT_EQ(m.head.per_token.divisor, 608u);
  const std::uint16_t starts[4] = {128, 384, 416, 480};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(m.head.segment_start[i], starts[i]) << "segment " << i + 1;
  EXPECT_EQ(m.roles.segment[v_copy].units, 128);
}

TEST(DecodeRoleParams, InPlaceQueriesNoWriteBackNoCacheAndSixteenBitCaches) {
  DecodeCall call = half_rotary();
  call.a.query_out = {};
  call.a.write_back_key = false;
  call.a.q_rot_offset = 0;
  Made m = make(call.a);
  EXPECT_EQ(m.roles.segment[q_rotation].out, call.q.data());  // rotated in place
  EXPECT_EQ(m.roles.segment[q_rotation].out_token_stride, 4 * 64);
  EXPECT_EQ(m.roles.segment[q_passthrough].units, 0);   // in place: nothing to copy
  EXPECT_EQ(m.roles.segment[k_rotation].out, nullptr);  // k is not written back

  // RoPE only: no slot mapping reaches the kernel, and no scale is read (none need be passed).
  call.a.slot_mapping = nullptr;
  call.a.k_scale = call.a.v_scale = nullptr;
  m = make(call.a);
  EXPECT_EQ(m.head.slot_mapping, nullptr);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(m.roles.segment[i].cache, nullptr) << "segment " << i;
    EXPECT_EQ(m.roles.segment[i].scale, nullptr) << "segment " << i;
  }

  // A 16-bit cache reads no scale even where one is passed.
  DecodeCall auto_cache = half_rotary();
  auto_cache.a.cache_dtype = CacheDType::auto_;
  m = make(auto_cache.a);
  EXPECT_EQ(m.roles.segment[k_rotation].scale, nullptr);
  EXPECT_EQ(m.roles.segment[v_copy].scale, nullptr);
  EXPECT_EQ(m.roles.segment[v_copy].cache, auto_cache.v_cache.data());
}

TEST(DecodeRoleParams, AnFp32TableAndTheQueryOffsetOfMla) {
  DecodeCall call = half_rotary();
  call.a.cos_sin_fp32 = true;
  call.a.q_head_size = 96;
  call.a.q_rot_offset = 32;
  call.a.query = {call.q.data(), 4 * 96, 96};
  call.a.query_out = {call.q_out.data(), 4 * 96, 96};
  const Made m = make(call.a);
  for (int i : {q_rotation, q_passthrough}) {
    EXPECT_EQ(m.roles.segment[i].src, call.q.data()) << i;  // the lane adds the offset
    EXPECT_EQ(m.roles.segment[i].rot_offset, 32) << i;
    EXPECT_EQ(m.roles.segment[i].src_head_stride, 96) << i;
  }
  EXPECT_EQ(m.roles.segment[k_passthrough].rot_offset, 0);  // k rotates from dim 0
  EXPECT_EQ(m.roles.segment[q_rotation].cos_sin_fp32, 1);
  EXPECT_EQ(m.roles.segment[k_rotation].cos_sin_fp32, 1);
}

TEST(DecodeRoleParams, WideStridesAndLongTokensKeepTheRouteWithoutThem) {
  const DecodeCall call = half_rotary();
  const WorkPlan p = make_fused_plan(call.a, 8);
  const RoleMajorSplit s = make_role_major_split(call.a, p, true);
  EXPECT_TRUE(decode_role_params_fit(call.a, p, s));
  const std::int64_t wide = std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
  for (int which = 0; which < 6; ++which) {
    RopeKvArgs a = call.a;
    std::int64_t* strides[6] = {&a.query.head_stride,     &a.query_out.head_stride,
                                &a.key.head_stride,       &a.value.head_stride,
                                &a.key_cache.head_stride, &a.value_cache.head_stride};
    *strides[which] = wide;
    EXPECT_FALSE(decode_role_params_fit(a, p, s)) << "stride " << which;
  }
  RoleMajorSplit many = s;
  many.padded_units_per_token = 65536;
  EXPECT_FALSE(decode_role_params_fit(call.a, p, many));
  many.padded_units_per_token = 65535;
  EXPECT_TRUE(decode_role_params_fit(call.a, p, many));

  // The launcher then keeps the route with the kernel of full parameters.
  const FusedOccupancy o = h200_fp8(call.a.style);
  const FusedLaunch fits = plan_fused_launch(call.a, 8, o);
  EXPECT_EQ(fits.kernel, FusedKernel::decode_half);
  EXPECT_TRUE(fits.compact);
  RopeKvArgs a = call.a;
  a.value.head_stride = wide;
  const FusedLaunch wide_v = plan_fused_launch(a, 8, o);
  EXPECT_EQ(wide_v.kernel, FusedKernel::decode_half);
  EXPECT_FALSE(wide_v.compact);
}

// The compact parameters up to kCompactDecodeCtasPerSm CTAs a SM of the launch, the full ones
// above it, on both decode role-major routes, whatever the kernel's occupancy.
TEST(DecodeRoleParams, CompactUpToTheirLaunchSize) {
  for (const RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    DecodeCall call = half_rotary();
    call.a.style = style;
    FusedOccupancy o = h200_fp8(style);
    o.half = o.decode_roles = 16;  // half a wave (8 a SM) passes the compact bound
    const FusedKernel route =
        style == RopeStyle::neox ? FusedKernel::decode_half : FusedKernel::decode_roles;
    const std::int64_t bound = std::int64_t{kCompactDecodeCtasPerSm} * o.sms;
    int compact = 0, full = 0;
    for (std::int64_t n = 1; n < (1 << 16); n += 1 + n / 8) {
      call.a.num_tokens = n;
      const FusedLaunch l = plan_fused_launch(call.a, 8, o);
      if (l.kernel != route) continue;
      EXPECT_EQ(l.compact, l.ctas <= bound) << n << " tokens, " << l.ctas << " CTAs";
      ++(l.compact ? compact : full);
    }
    EXPECT_GT(compact, 0);
    EXPECT_GT(full, 0);
  }
}

}  // namespace
}  // namespace rkv
