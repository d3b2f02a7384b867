// plan_fused_launch (kernels/fused_launch.h): which kernel, order and grid a case takes, for a
// GPU with an H200's SM count and the occupancy ptxas gives the kernels there. Host only: these
// are the routes the A/B subsets of results/NOTES.md are made of, and the launcher launches
// exactly what this function returns.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fused_launch.h"
#include "h200_occupancy.h"
#include "work_plan.h"

namespace rkv {
namespace {

RopeKvArgs heads(int hq, int hkv, int d, int rot, std::int64_t tokens,
                 RopeStyle style = RopeStyle::neox, CacheDType cache = CacheDType::auto_) {
  static const std::int64_t slots[1] = {0};
  RopeKvArgs a;
  a.num_tokens = a.num_cache_tokens = tokens;
  a.num_q_heads = hq;
  a.num_kv_heads = hkv;
  a.q_head_size = a.k_head_size = a.v_head_size = d;
  a.rot_dim = rot;
  a.slot_mapping = slots;
  a.style = style;
  a.cache_dtype = cache;
  return a;
}

// MLA: q 192 wide rotated in [128, 128 + rot), k_pe 64, the 512-wide latent as v, one kv head.
RopeKvArgs mla(int hq, int rot, std::int64_t tokens, CacheDType cache = CacheDType::auto_) {
  RopeKvArgs a = heads(hq, 1, 192, rot, tokens, RopeStyle::neox, cache);
  a.k_head_size = 64;
  a.v_head_size = 512;
  a.q_rot_offset = 128;
  return a;
}

FusedLaunch route(const RopeKvArgs& a) {
  return plan_fused_launch(a, 8,
                           a.cache_dtype == CacheDType::auto_ ? h200(a.style) : h200_fp8(a.style));
}
FusedLaunch route(const RopeKvArgs& a, const FusedOccupancy& o) {
  return plan_fused_launch(a, 8, o);
}

// MLA with an fp8 cache and full rotary where copies are at least a quarter of a token's units
// (mla:16): role-major order, segments of whole warps, so no warp runs two roles' branches.
// mla:128 (12 % copies), the auto cache and decode sizes keep their routes (round 24).
TEST(FusedLaunch, Fp8Mla16FullRotaryTakesRoleMajorWholeWarps) {
  for (std::int64_t n : {1024, 2048, 16384, 65536}) {
    RopeKvArgs a = mla(16, 64, n, CacheDType::fp8_e4m3);
    FusedLaunch l = route(a);
    // The token-warp kernel (below) takes neox from a wave of it (3165 tokens), gpt-j beyond
    // decode sizes (378 tokens): gpt-j's role-major whole warps are its decode launches only.
    EXPECT_EQ(l.kernel, n < 16384 ? FusedKernel::prefill_half : FusedKernel::token_warp) << n;
    EXPECT_EQ(l.roles, n < 16384) << n;
    a.style = RopeStyle::gptj;
    l = route(a);
    EXPECT_EQ(l.kernel, FusedKernel::token_warp) << n;
    EXPECT_FALSE(l.roles) << n;
    a.cache_dtype = CacheDType::fp8_e5m2;
    EXPECT_FALSE(route(a).roles) << n;
    a.cache_dtype = CacheDType::auto_;
    EXPECT_FALSE(route(a).roles) << n;
    RopeKvArgs wide = mla(128, 64, n, CacheDType::fp8_e4m3);
    EXPECT_EQ(route(wide).roles, n < 16384) << n;  // only on the flat grid (below)
    wide.style = RopeStyle::gptj;
    EXPECT_FALSE(route(wide).roles) << n;
  }
  // mla:128 (12 % copies): role-major whole warps only where the row-major launch is flat, on the
  // flat grid still; its strided launches stay row-major (round 25).
  for (std::int64_t n : {256, 2048, 8192}) {
    const RopeKvArgs wide = mla(128, 64, n, CacheDType::fp8_e4m3);
    const FusedLaunch l = route(wide);
    EXPECT_EQ(l.kernel, FusedKernel::flat) << n;
    EXPECT_TRUE(l.roles) << n;
    EXPECT_EQ(l.threads, n * launched_units_per_token(l.plan, l.split, true)) << n;
  }
  RopeKvArgs wide = mla(128, 64, 128, CacheDType::fp8_e4m3);
  wide.style = RopeStyle::gptj;
  EXPECT_EQ(route(wide).kernel, FusedKernel::flat);
  EXPECT_TRUE(route(wide).roles);
  for (std::int64_t n : {16384, 65536}) {
    const FusedLaunch l = route(mla(128, 64, n, CacheDType::fp8_e4m3));
    EXPECT_EQ(l.kernel, FusedKernel::strided) << n;
    EXPECT_FALSE(l.roles) << n;
  }
  wide.num_tokens = wide.num_cache_tokens = 2048;  // gpt-j's strided grid from 256 tokens
  EXPECT_EQ(route(wide).kernel, FusedKernel::strided);
  EXPECT_FALSE(route(wide).roles);
  wide.cache_dtype = CacheDType::auto_;  // 16-bit caches keep their routes
  wide.style = RopeStyle::neox;
  EXPECT_FALSE(route(wide).roles);
  const RopeKvArgs a = mla(16, 64, 16384, CacheDType::fp8_e4m3);
  EXPECT_TRUE(mla_fp8_role_warps(a, make_fused_plan(a, 8)));
  EXPECT_FALSE(role_major_units(a, make_fused_plan(a, 8)));  // no pass-through units to order
}

// MLA full rotary with a 16-bit cache: role-major whole warps where the row-major launch is on
// the flat grid (round 26b), the flat grid still; the strided and wide launches keep row-major
// order and their two-chunk copies (whole warps did not pay there, round 26).
// MLA with an fp8 cache, full rotary and few q heads (mla:16) takes one warp a token beyond
// decode sizes, either style, where its grid fills at least one wave of the kernel's resident
// CTAs: 4 tokens a CTA, 32 lanes a token, no role-major split. 16-bit caches, mla:128, partial
// rotary, a separate query_out (q rows with pass-through units) and two kv heads keep their
// routes (token_warp_pays; gpt-j round 28b, neox round 29).
TEST(FusedLaunch, Fp8Mla16TakesOneWarpAToken) {
  for (std::int64_t n : {4096, 16384, 65536}) {
    for (RopeStyle style : {RopeStyle::gptj, RopeStyle::neox}) {
      for (CacheDType cache : {CacheDType::fp8_e4m3, CacheDType::fp8_e5m2}) {
        RopeKvArgs a = mla(16, 64, n, cache);
        a.style = style;
        const FusedLaunch l = route(a);
        EXPECT_EQ(l.kernel, FusedKernel::token_warp) << n;
        EXPECT_FALSE(l.roles) << n;
        EXPECT_FALSE(l.compact) << n;
        EXPECT_EQ(l.threads, n * 32) << n;
        EXPECT_EQ(l.ctas, n * 32 / kFusedThreads) << n;
      }
      // One wave of the kernel is 6 x 132 CTAs, 4 tokens a CTA: neox from 3165 tokens (round
      // 34: 3 % slower at 2048); gpt-j where its decode launches end, 378 tokens (round 36:
      // faster by 11-15 % at 1024-1280 tokens, level at 768).
      const std::int64_t first = style == RopeStyle::neox ? 3165 : 378;
      RopeKvArgs short_launch = mla(16, 64, first - 1, CacheDType::fp8_e4m3);
      short_launch.num_cache_tokens = first - 1;
      short_launch.style = style;
      EXPECT_NE(route(short_launch).kernel, FusedKernel::token_warp);
      short_launch.num_tokens = short_launch.num_cache_tokens = first;
      EXPECT_EQ(route(short_launch).kernel, FusedKernel::token_warp);
    }
    RopeKvArgs a = mla(16, 64, n, CacheDType::fp8_e4m3);
    a.style = RopeStyle::gptj;
    RopeKvArgs other = a;
    other.cache_dtype = CacheDType::auto_;
    EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
    other = mla(128, 64, n, CacheDType::fp8_e4m3);
    other.style = RopeStyle::gptj;
    EXPECT_TRUE(token_warp_layout(other, make_fused_plan(other, 8)));
    EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
    other.style = RopeStyle::neox;
    EXPECT_TRUE(token_warp_layout(other, make_fused_plan(other, 8)));
    EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
    other = a;
    static char out[1];
    other.query_out.data = out;
    EXPECT_FALSE(token_warp_layout(other, make_fused_plan(other, 8))) << n;
    other = a;
    other.num_q_heads = 32;
    other.num_kv_heads = 2;
    EXPECT_FALSE(token_warp_layout(other, make_fused_plan(other, 8))) << n;
    // Neox lanes hold a chunk each, so a row's chunks must fit a warp: with 2-element accesses
    // 16 units (32 chunks) a row, with 1-element ones 32 units (64 chunks), which gpt-j's units
    // of one chunk would not divide either.
    other = a;
    other.style = RopeStyle::neox;
    EXPECT_TRUE(token_warp_layout(other, make_fused_plan(other, 2))) << n;
    EXPECT_FALSE(token_warp_layout(other, make_fused_plan(other, 1))) << n;
    // A GPU where the kernel has no CTAs (occupancy unknown) keeps the unit kernels.
    for (RopeStyle style : {RopeStyle::gptj, RopeStyle::neox}) {
      FusedOccupancy none = h200_fp8(style);
      none.token_warp = 0;
      other = a;
      other.style = style;
      EXPECT_NE(route(other, none).kernel, FusedKernel::token_warp) << n;
    }
  }
}

// Partial rotary (mla:16 rot = 32, round 33): q rows rotated in place have no pass-through unit,
// and the k_pe row's 4 pass-through chunks follow its rotated ones on the warp's lanes, so the
// token warp takes it beyond decode sizes (round 36). A query_out of its own (q pass-through units
// to copy), mla:128 (copies under a quarter) and a 16-bit cache keep the unit kernels.
TEST(FusedLaunch, Fp8Mla16PartialRotaryTakesOneWarpAToken) {
  for (RopeStyle style : {RopeStyle::gptj, RopeStyle::neox}) {
    for (std::int64_t n : {1581, 3165, 16384, 65536}) {
      RopeKvArgs a = mla(16, 32, n, CacheDType::fp8_e4m3);
      a.style = style;
      const WorkPlan p = make_fused_plan(a, 8);
      EXPECT_EQ(p.q_pass, 0) << n;
      EXPECT_EQ(p.k_pass, 4) << n;
      EXPECT_TRUE(token_warp_layout(a, p)) << n;
      const FusedLaunch l = route(a);
      EXPECT_EQ(l.kernel, FusedKernel::token_warp) << n;
      EXPECT_EQ(l.ctas, (n * 32 + kFusedThreads - 1) / kFusedThreads) << n;
      RopeKvArgs other = a;
      static char out[1];
      other.query_out.data = out;
      EXPECT_GT(make_fused_plan(other, 8).q_pass, 0) << n;
      EXPECT_FALSE(token_warp_layout(other, make_fused_plan(other, 8))) << n;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
      other = a;
      other.cache_dtype = CacheDType::auto_;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
      other = mla(128, 32, n, CacheDType::fp8_e4m3);
      other.style = style;
      EXPECT_TRUE(token_warp_layout(other, make_fused_plan(other, 8))) << n;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
    }
    // Partial rotary where the decode launches end in either style: neox's half units to 528
    // tokens, gpt-j's role-major warps to 440 (round 36: 23-36 % faster at 640-1280 tokens).
    const std::int64_t first = style == RopeStyle::neox ? 529 : 441;
    RopeKvArgs short_launch = mla(16, 32, first - 1, CacheDType::fp8_e4m3);
    short_launch.style = style;
    const FusedLaunch decode = route(short_launch);
    EXPECT_EQ(decode.kernel,
              style == RopeStyle::neox ? FusedKernel::decode_half : FusedKernel::decode_roles);
    short_launch.num_tokens = short_launch.num_cache_tokens = first;
    EXPECT_EQ(route(short_launch).kernel, FusedKernel::token_warp);
  }
  // The k row's rotated and pass-through chunks must fit a warp: with 2-element accesses 16 and
  // 16 (either style), with 1-element ones 32 and 32, which leaves the layout.
  for (RopeStyle style : {RopeStyle::gptj, RopeStyle::neox}) {
    RopeKvArgs a = mla(16, 32, 16384, CacheDType::fp8_e4m3);
    a.style = style;
    EXPECT_EQ(make_fused_plan(a, 2).k_pass, 16);
    EXPECT_TRUE(token_warp_layout(a, make_fused_plan(a, 2)));
    EXPECT_FALSE(token_warp_layout(a, make_fused_plan(a, 1)));
  }
}

// Mla:16 with a 16-bit cache and full rows: the token warp up to the last launch below a wave of
// its 6 CTAs a SM (3164 tokens), gpt-j from two and a half CTAs a SM (330 CTAs on 132 SMs, 1317
// tokens; round 37c), neox from two (264 CTAs, 1053 tokens; round 38). Below, the unit grids were
// as fast (round 37b: gpt-j 3 % slower at 1088 tokens); from a wave up they were not measured to
// lose (round 32), so they stay.
TEST(FusedLaunch, SixteenBitMla16TakesOneWarpATokenBelowAWave) {
  for (RopeStyle style : {RopeStyle::gptj, RopeStyle::neox}) {
    const std::int64_t first = style == RopeStyle::neox ? 1053 : 1317;
    for (std::int64_t n : {first, std::int64_t{2048}, std::int64_t{3164}}) {
      RopeKvArgs a = mla(16, 64, n);
      a.style = style;
      const FusedLaunch l = route(a);
      EXPECT_EQ(l.kernel, FusedKernel::token_warp) << n;
      EXPECT_FALSE(l.roles) << n;
      EXPECT_EQ(l.threads, n * 32) << n;
      EXPECT_EQ(l.ctas, (n * 32 + kFusedThreads - 1) / kFusedThreads) << n;
      // Partial rotary has no 16-bit-cache kernel; mla:128 and a query_out of its own (q rows
      // with pass-through units) leave the layout.
      RopeKvArgs other = mla(16, 32, n);
      other.style = style;
      EXPECT_FALSE(token_warp_pays(other, make_fused_plan(other, 8))) << n;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
      other = mla(128, 64, n);
      other.style = style;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
      other = a;
      static char out[1];
      other.query_out.data = out;
      EXPECT_NE(route(other).kernel, FusedKernel::token_warp) << n;
    }
    for (std::int64_t n : {first - 1, std::int64_t{3165}, std::int64_t{16384}}) {
      RopeKvArgs a = mla(16, 64, n);
      a.style = style;
      EXPECT_NE(route(a).kernel, FusedKernel::token_warp) << n;
    }
    // Without the kernel's occupancy the route is not taken.
    RopeKvArgs a = mla(16, 64, 2048);
    a.style = style;
    FusedOccupancy unknown = h200(style);
    unknown.token_warp = 0;
    EXPECT_NE(route(a, unknown).kernel, FusedKernel::token_warp);
  }
}

TEST(FusedLaunch, SixteenBitMlaFlatLaunchesTakeRoleMajorWholeWarps) {
  struct Case {
    int hq;
    RopeStyle style;
    std::int64_t tokens;
  };
  for (const Case c : {Case{16, RopeStyle::neox, 1024}, Case{128, RopeStyle::neox, 256},
                       Case{128, RopeStyle::gptj, 128}}) {
    RopeKvArgs a = mla(c.hq, 64, c.tokens);
    a.style = c.style;
    const FusedLaunch l = route(a);
    EXPECT_EQ(l.kernel, FusedKernel::flat) << c.hq << " " << c.tokens;
    EXPECT_TRUE(l.roles) << c.hq << " " << c.tokens;
    EXPECT_EQ(l.threads, c.tokens * launched_units_per_token(l.plan, l.split, true));
    EXPECT_GT(l.split.padded_units_per_token, l.plan.units_per_token);
  }
  for (RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    RopeKvArgs a = mla(16, 64, 16384);
    a.style = style;
    const FusedLaunch l = route(a);
    EXPECT_EQ(l.kernel, FusedKernel::wide);
    EXPECT_FALSE(l.roles);
    EXPECT_FALSE(l.compact);  // beyond decode sizes every kernel takes RopeKvArgs
  }
  // Gpt-j's 512-token launch is a decode one (16 CTAs a SM for that kernel): whole warps already.
  RopeKvArgs a = mla(16, 64, 512);
  a.style = RopeStyle::gptj;
  EXPECT_EQ(route(a).kernel, FusedKernel::decode_roles);
  // Partial rotary keeps its rules (k_pe's pass-through units: role_major_units decides).
  const RopeKvArgs partial = mla(128, 32, 256);
  EXPECT_FALSE(mla_full_rows(partial, make_fused_plan(partial, 8)));
}

TEST(FusedLaunch, DecodeSizesTakeTheRowWarpLayoutOrWholeWarpsARole) {
  // Neox rows of rotation only: the row-warp layout, lanes of whole warps.
  FusedLaunch l = route(heads(32, 8, 128, 128, 1));
  EXPECT_EQ(l.kernel, FusedKernel::row_warp);
  EXPECT_TRUE(l.compact);
  EXPECT_EQ(l.threads, l.rows.lanes_per_token);
  EXPECT_EQ(l.ctas, (l.threads + kFusedThreads - 1) / kFusedThreads);
  // gpt-j 32x8x128: every segment is whole warps and no row mixes roles: the flat unit kernel.
  l = route(heads(32, 8, 128, 128, 1, RopeStyle::gptj));
  EXPECT_EQ(l.kernel, FusedKernel::flat);
  EXPECT_FALSE(l.roles);
  // gpt-j 8x1x64: k's 8 and v's 8 units would share a warp: padded to 64 + 32 + 32.
  l = route(heads(8, 1, 64, 64, 1, RopeStyle::gptj));
  EXPECT_EQ(l.kernel, FusedKernel::decode_roles);
  EXPECT_TRUE(l.roles);
  EXPECT_EQ(l.split.padded_units_per_token, 128);
  // fp8 neox partial rotary: half-chunk rotation units, twice the whole-chunk plan's.
  const RopeKvArgs fp8 = heads(16, 2, 256, 64, 8, RopeStyle::neox, CacheDType::fp8_e4m3);
  l = route(fp8);
  EXPECT_EQ(l.kernel, FusedKernel::decode_half);
  EXPECT_EQ(l.plan.q_rot, 2 * make_fused_plan(fp8, 8).q_rot);
  // Beyond half a wave of the row-warp kernel's CTAs (16 x 132 / 2 = 1056), the unit grids.
  l = route(heads(32, 8, 128, 128, 4096));
  EXPECT_NE(l.kernel, FusedKernel::row_warp);
  EXPECT_EQ(l.kernel, FusedKernel::strided);
}

TEST(FusedLaunch, PrefillRoutesOfThePartialRotaryShapes) {
  // Half units where a token's q rotation units fill at most two warps (16 x 2 = 32 here) ...
  FusedLaunch l = route(heads(16, 2, 256, 64, 65536, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::prefill_half);
  EXPECT_TRUE(l.roles);
  // ... not where q has many (28 x 4 = 112): the role-major unit kernels, on the strided grid for
  // GQA heads of up to 128 from 16 units a thread of one wave (65k: 99, one wave; 16k: 25), flat
  // below that (2048: 3) and for wider heads (16x2x256 rot = 128 at 16k) or MHA short of the long
  // launches (32x32x128 rot = 64 at 16k: 99 units, not 100; MHA's flat launches move two chunks
  // a copy unit, Fp8MhaLaunchesOnTheFlatGridMoveTwoChunksACopyUnit). 16x2x256 at 65k is long
  // (>= 100 units a thread of 9 CTAs a SM): strided, in waves.
  l = route(heads(28, 4, 128, 64, 65536, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_TRUE(l.roles);
  EXPECT_LE(l.ctas, 132 * 10);
  l = route(heads(28, 4, 128, 64, 16384, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_GE(l.threads, l.ctas * kFusedThreads * 16);
  EXPECT_LT(l.threads, l.ctas * kFusedThreads * 32);
  l = route(heads(28, 4, 128, 64, 2048, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::flat);
  EXPECT_TRUE(l.roles);
  l = route(heads(16, 2, 256, 128, 16384, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::flat);
  EXPECT_TRUE(l.roles);
  l = route(heads(16, 2, 256, 128, 65536, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_TRUE(l.roles);
  EXPECT_GT(l.ctas, 15 * strided_grid_ctas(132 * 9, l.plan.units_per_token, kFusedThreads));
  EXPECT_EQ(route(heads(32, 32, 128, 64, 16384, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat_wide);
  // Fp8 neox row-major GQA launches with q rows of >= 4096 elements: the strided grid where a
  // thread of one wave runs >= 32 units (16k: 48), the flat one below (2048: 6) and for shorter q
  // rows (28 x 128 = 3584) short of a long launch (16k: 34 units; at 65k 138: long, below).
  l = route(heads(32, 8, 128, 128, 16384, RopeStyle::neox, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_FALSE(l.roles);
  EXPECT_GE(l.threads, l.ctas * kFusedThreads * 32);
  EXPECT_EQ(route(heads(32, 8, 128, 128, 2048, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat);
  EXPECT_EQ(route(heads(28, 4, 128, 128, 16384, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat);
  EXPECT_EQ(route(heads(32, 32, 128, 128, 8192, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat_wide);
  // Long launches take the strided grid in 16 waves whatever the shape, from 100 units a thread
  // of one wave: MHA at 16k (neox 110, gpt-j 165) and 65k, 28x4x128 at 65k (138), role-major
  // 32x8x128 rot = 64 (136); MHA in role-major order excepted
  // (Fp8MhaLaunchesOnTheFlatGridMoveTwoChunksACopyUnit).
  for (const RopeKvArgs& a :
       {heads(32, 32, 128, 128, 65536, RopeStyle::neox, CacheDType::fp8_e4m3),
        heads(32, 32, 128, 128, 65536, RopeStyle::gptj, CacheDType::fp8_e4m3),
        heads(32, 32, 128, 128, 16384, RopeStyle::neox, CacheDType::fp8_e4m3),
        heads(32, 32, 128, 128, 16384, RopeStyle::gptj, CacheDType::fp8_e4m3),
        heads(28, 4, 128, 128, 65536, RopeStyle::neox, CacheDType::fp8_e4m3),
        heads(32, 8, 128, 64, 65536, RopeStyle::neox, CacheDType::fp8_e4m3)}) {
    l = route(a);
    const FusedOccupancy o = h200_fp8(a.style);
    const std::int64_t per_sm = o.strided[l.roles];
    EXPECT_EQ(l.kernel, FusedKernel::strided) << a.rot_dim;
    EXPECT_GT(l.ctas, 15 * 132 * per_sm) << a.rot_dim;
    EXPECT_LE(l.ctas, 16 * 132 * per_sm) << a.rot_dim;
  }
  EXPECT_EQ(route(mla(128, 64, 16384, CacheDType::fp8_e4m3)).kernel, FusedKernel::strided);
  // Gpt-j row-major GQA launches with q rows of >= 3200 elements: the strided grid at every
  // prefill size; MHA and shorter q rows keep the flat one.
  l = route(heads(32, 8, 128, 128, 65536, RopeStyle::gptj, CacheDType::fp8_e4m3));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_FALSE(l.roles);
  EXPECT_EQ(route(heads(40, 8, 80, 80, 2048, RopeStyle::gptj, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::strided);
  RopeKvArgs mla128 = mla(128, 64, 16384, CacheDType::fp8_e4m3);
  mla128.style = RopeStyle::gptj;
  EXPECT_EQ(route(mla128).kernel, FusedKernel::strided);
  // 16 x 192 = 3072 < 3200. A query_out of its own (q rows with pass-through units to copy)
  // keeps it out of the token warp, which takes it otherwise (below).
  RopeKvArgs mla16 = mla(16, 64, 1024, CacheDType::fp8_e4m3);
  mla16.style = RopeStyle::gptj;
  static char mla16_out[1];
  mla16.query_out.data = mla16_out;
  EXPECT_EQ(route(mla16).kernel, FusedKernel::flat);
  EXPECT_EQ(route(heads(32, 32, 128, 128, 8192, RopeStyle::gptj, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat_wide);  // MHA short of a long launch: two chunks a copy unit (below)
  EXPECT_EQ(route(heads(8, 1, 64, 64, 65536, RopeStyle::gptj, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat);
  // 16-bit caches: the strided grid of the resident CTAs, role-major where rows mix roles; at
  // 16k tokens a thread of one wave runs 38 units: one wave.
  l = route(heads(32, 8, 128, 64, 16384));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_TRUE(l.roles);
  const std::int64_t units =
      l.split.padded_units_per_token > 0 ? l.split.padded_units_per_token : l.plan.units_per_token;
  const std::int64_t one_wave = strided_grid_ctas(132 * 9, units, kFusedThreads);
  EXPECT_EQ(l.ctas, one_wave);
  // At 65k, 152 units a thread of one wave: role-major, so long from 100 units: 16 waves.
  l = route(heads(32, 8, 128, 64, 65536));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_TRUE(l.roles);
  EXPECT_GE(l.threads, one_wave * kFusedThreads * 100);
  EXPECT_LT(l.threads, one_wave * kFusedThreads * 200);
  EXPECT_EQ(l.ctas, strided_grid_ctas(one_wave * 16, units, kFusedThreads));
  EXPECT_GT(l.ctas, 15 * one_wave);
  l = route(heads(32, 8, 128, 128, 65536, RopeStyle::gptj));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_FALSE(l.roles);
  // MHA with half rotary: copies dominate, two chunks a copy unit (the two-chunk plan's units).
  l = route(heads(32, 32, 128, 64, 65536));
  EXPECT_EQ(l.kernel, FusedKernel::wide);
  EXPECT_TRUE(l.roles);
  EXPECT_EQ(l.plan.v_units, make_fused_plan(heads(32, 32, 128, 64, 1), 8).v_units / 2);
  EXPECT_GT(l.ctas, 15 * 132 * 9);  // 276 units a thread of one wave: 16 waves
}

TEST(FusedLaunch, Fp8MhaLaunchesOnTheFlatGridMoveTwoChunksACopyUnit) {
  // MHA (kv heads = q heads) with an fp8 cache, wherever the flat grid is taken (below a long
  // launch: 8192 tokens, 55-83 units a thread of one wave): the two-chunk plan (half the v units),
  // one unit a thread, in either unit order.
  for (RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    for (int rot : {128, 64}) {
      for (std::int64_t n : {std::int64_t{2048}, std::int64_t{8192}}) {
        const RopeKvArgs a = heads(32, 32, 128, rot, n, style, CacheDType::fp8_e4m3);
        const FusedLaunch l = route(a);
        const WorkPlan one_chunk = make_fused_plan(a, 8);
        EXPECT_EQ(l.kernel, FusedKernel::flat_wide) << rot << " " << n;
        EXPECT_EQ(l.roles, rot == 64) << rot << " " << n;
        EXPECT_EQ(l.plan.v_units, one_chunk.v_units / 2);
        EXPECT_EQ(l.plan.k_pass, one_chunk.k_pass / 2);
        const std::int64_t units = l.split.padded_units_per_token > 0
                                       ? l.split.padded_units_per_token
                                       : l.plan.units_per_token;
        EXPECT_EQ(l.threads, n * units);
        EXPECT_EQ(l.ctas, (l.threads + kFusedThreads - 1) / kFusedThreads);
        EXPECT_LT(l.threads, n * one_chunk.units_per_token);
      }
    }
  }
  // Only where the two-chunk grid passes one wave of its resident CTAs: not at decode sizes that
  // reach the flat grid (gpt-j full rotary: no row mixes roles; rot = 64 at 128 tokens: 896
  // two-chunk CTAs against 16 x 132), nor one CTA short of a wave.
  for (std::int64_t n : {1, 8, 128}) {
    for (int rot : {128, 64}) {
      const FusedKernel k =
          route(heads(32, 32, 128, rot, n, RopeStyle::gptj, CacheDType::fp8_e4m3)).kernel;
      EXPECT_NE(k, FusedKernel::flat_wide) << n << " " << rot;
      if (n == 128) {  // at N = 1 and 8, rot = 64 takes whole warps a role (decode_roles)
        EXPECT_EQ(k, FusedKernel::flat) << rot;
      }
    }
  }
  EXPECT_EQ(route(heads(32, 32, 128, 64, 128, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat);
  FusedOccupancy edge = h200_fp8(RopeStyle::neox);
  const FusedLaunch at_2048 =
      route(heads(32, 32, 128, 128, 2048, RopeStyle::neox, CacheDType::fp8_e4m3), edge);
  ASSERT_EQ(at_2048.kernel, FusedKernel::flat_wide);
  edge.flat_wide[0] = static_cast<int>(at_2048.ctas / edge.sms) + 1;  // one wave holds them all
  EXPECT_EQ(
      route(heads(32, 32, 128, 128, 2048, RopeStyle::neox, CacheDType::fp8_e4m3), edge).kernel,
      FusedKernel::flat);
  // Long role-major MHA launches too (rot = 64 at 65k: 5.3 % faster than in 16 waves, round 16);
  // long row-major ones keep the strided grid; GQA and MLA keep the one-chunk flat kernel
  // (40x8x80's 25 % copies and mla:16 lost with two chunks); 16-bit caches never take it.
  for (RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    const FusedLaunch l = route(heads(32, 32, 128, 64, 65536, style, CacheDType::fp8_e4m3));
    EXPECT_EQ(l.kernel, FusedKernel::flat_wide);
    EXPECT_TRUE(l.roles);
  }
  EXPECT_EQ(route(heads(32, 32, 128, 128, 65536, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::strided);
  EXPECT_EQ(route(heads(40, 8, 80, 80, 16384, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::flat);
  EXPECT_NE(route(mla(16, 64, 16384, CacheDType::fp8_e4m3)).kernel, FusedKernel::flat_wide);
  EXPECT_NE(route(heads(32, 32, 128, 128, 16384)).kernel, FusedKernel::flat_wide);
  EXPECT_NE(route(heads(32, 32, 128, 128, 1, RopeStyle::gptj)).kernel, FusedKernel::flat_wide);
  // Where the instantiation reports no occupancy, the one-chunk flat kernel.
  FusedOccupancy none = h200_fp8(RopeStyle::neox);
  none.flat_wide[0] = none.flat_wide[1] = 0;
  EXPECT_EQ(
      route(heads(32, 32, 128, 128, 8192, RopeStyle::neox, CacheDType::fp8_e4m3), none).kernel,
      FusedKernel::flat);
}

TEST(FusedLaunch, LaunchesAreLongFromAHundredUnitsAThread) {
  // The threshold counts units a thread of 9 CTAs a SM (132 x 9 x 128 = 152064 threads),
  // whatever the kernel's own occupancy (the gpt-j strided kernel's 16 on the H200), in either
  // unit order and for any row width (round 65; 200 before for row-major whole-line rows).
  // 32x32x128 neox has 1024 units a token: 14850 tokens are exactly 100 units a thread, 14849 one
  // token fewer.
  const std::int64_t fitted_threads = 132 * 9 * kFusedThreads;
  for (CacheDType cache : {CacheDType::auto_, CacheDType::fp8_e4m3}) {
    FusedLaunch l = route(heads(32, 32, 128, 128, 14850, RopeStyle::neox, cache));
    ASSERT_EQ(l.kernel, FusedKernel::strided);
    EXPECT_EQ(l.threads, 100 * fitted_threads);
    EXPECT_GT(l.ctas, 15 * 132 * 9);
    // One token fewer: a 16-bit cache runs one wave of the strided grid, fp8 (MHA, not long)
    // the flat two-chunk grid.
    l = route(heads(32, 32, 128, 128, 14849, RopeStyle::neox, cache));
    EXPECT_LT(l.threads, 100 * fitted_threads);
    if (cache == CacheDType::auto_) {
      EXPECT_EQ(l.kernel, FusedKernel::strided);
      EXPECT_EQ(l.ctas, strided_grid_ctas(132 * 9, l.plan.units_per_token, kFusedThreads));
    } else {
      EXPECT_EQ(l.kernel, FusedKernel::flat_wide);
    }
  }
  // Row-major launches of whole-line rows in the 100-200 band: 32x8x128 neox at 65k (193 units)
  // and 32x32x128 gpt-j at 16k (165) run in waves; at 16k 32x8x128 (48) runs one.
  FusedLaunch l = route(heads(32, 8, 128, 128, 65536));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_FALSE(l.roles);
  EXPECT_GT(l.ctas, 15 * 132 * 9);
  l = route(heads(32, 32, 128, 128, 16384, RopeStyle::gptj));
  EXPECT_FALSE(l.roles);
  EXPECT_GT(l.ctas, 15 * 132 * 9);
  l = route(heads(32, 8, 128, 128, 16384));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_EQ(l.ctas, strided_grid_ctas(132 * 9, l.plan.units_per_token, kFusedThreads));
  // Kernels of 16 CTAs a SM count at 9: at 32k tokens 40x8x80's 560 units a token give a fitted
  // thread 120 units and 28x4x128's 576 give 124, so both run 16 waves of their own grid.
  FusedOccupancy o = h200();
  o.strided[0] = o.wide[0] = 16;
  for (CacheDType cache : {CacheDType::auto_, CacheDType::fp8_e4m3}) {
    for (const RopeKvArgs& a : {heads(40, 8, 80, 80, 32768, RopeStyle::gptj, cache),
                                heads(28, 4, 128, 128, 32768, RopeStyle::gptj, cache)}) {
      l = route(a, o);
      ASSERT_EQ(l.kernel, FusedKernel::strided) << a.num_q_heads;
      EXPECT_LT(l.threads, 200 * fitted_threads) << a.num_q_heads;
      EXPECT_GT(l.ctas, 15 * strided_grid_ctas(132 * 16, l.plan.units_per_token, kFusedThreads))
          << a.num_q_heads;
    }
    // At 16k tokens (60 and 62 units) one wave.
    l = route(heads(28, 4, 128, 128, 16384, RopeStyle::gptj, cache), o);
    ASSERT_EQ(l.kernel, FusedKernel::strided);
    EXPECT_EQ(l.ctas, strided_grid_ctas(132 * 16, l.plan.units_per_token, kFusedThreads));
  }
  // rot = 64: k rows mix rotation and pass-through units, still row-major for gpt-j.
  l = route(heads(40, 8, 80, 64, 65536, RopeStyle::gptj), o);
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_FALSE(l.roles);
  EXPECT_GT(l.ctas, 15 * 132 * 15);
}

TEST(FusedLaunch, WavesNeverPassTheFlatGrid) {
  // Just past one wave (a strided launch whose threads run a few units), the grid stays at one
  // wave; and however long the launch, no more CTAs than the flat grid's.
  for (std::int64_t n : {2048, 4096, 16384, 65536, 262144}) {
    const FusedLaunch l = route(heads(32, 8, 128, 128, n, RopeStyle::gptj));
    ASSERT_EQ(l.kernel, FusedKernel::strided) << n;
    EXPECT_LE(l.ctas, (l.threads + kFusedThreads - 1) / kFusedThreads) << n;
    const std::int64_t one_wave = strided_grid_ctas(132 * 9, l.plan.units_per_token, kFusedThreads);
    const bool long_launch = l.threads >= one_wave * kFusedThreads * 100;
    EXPECT_EQ(l.ctas > one_wave, long_launch) << n;
    EXPECT_EQ(long_launch, n >= 65536) << n;
  }
}

TEST(FusedLaunch, MlaSixteenTakesTheWideGridOnlyWhereItsUnitsOutnumberTheResidentCtas) {
  // mla:16 rot = 32 at 2048 tokens: more one-chunk units than the resident threads, but the
  // two-chunk units fit in them at once, so the one-chunk strided grid (session 19 predicted this
  // case on the wide kernel and was wrong).
  FusedLaunch l = route(mla(16, 32, 2048));
  EXPECT_EQ(l.kernel, FusedKernel::strided);
  EXPECT_TRUE(l.roles);
  l = route(mla(16, 32, 16384));
  EXPECT_EQ(l.kernel, FusedKernel::wide);
  EXPECT_TRUE(l.roles);
  // mla:128 rot = 32: sparse rotation windows dominate, the flat grid at every size.
  for (std::int64_t n : {2048, 65536})
    EXPECT_EQ(route(mla(128, 32, n)).kernel, FusedKernel::flat);
}

TEST(FusedLaunch, RowsThatSplitSectorsStayOnTheFlatGrid) {
  EXPECT_EQ(route(heads(40, 8, 80, 40, 65536)).kernel, FusedKernel::flat);     // rot window, 80 B
  EXPECT_EQ(route(heads(40, 8, 80, 80, 65536)).kernel, FusedKernel::flat);     // neox half rows
  EXPECT_EQ(route(heads(40, 8, 80, 64, 65536)).kernel, FusedKernel::strided);  // 128 B: whole
}

// The launches GPU validation's packed_flat_cases() hold to (gpu_validation_test.cu): row-major
// on the flat grid, the one kernel that holds a neox unit's cos/sin packed (packs_flat, round 58).
// Were the plan to move them, the packed path would lose its validation cases.
TEST(FusedLaunch, PackedCosSinValidationCasesAreRowMajorFlat) {
  static unsigned char query_out[1];
  RopeKvArgs separate = heads(32, 32, 128, 128, 128);
  separate.query_out.data = query_out;
  separate.write_back_key = false;
  struct Want {
    RopeKvArgs args;
    int vec;  // 32x8x40: 20-element half rows take 4-element chunks
  };
  for (const Want& w : {Want{heads(40, 8, 80, 80, 2048), 8}, Want{heads(64, 8, 128, 128, 128), 8},
                        Want{separate, 8}, Want{heads(32, 8, 40, 40, 2048), 4}}) {
    const FusedLaunch l = plan_fused_launch(w.args, w.vec, h200());
    EXPECT_EQ(l.kernel, FusedKernel::flat) << w.args.num_q_heads << "x" << w.args.q_head_size;
    EXPECT_FALSE(l.roles) << w.args.num_q_heads << "x" << w.args.q_head_size;
  }
}

// The launches GPU validation's packed_token_warp_cases() hold to: mla:16 neox full rows on the
// token warp, whose neox kernel with a 16-bit table holds it packed (round 63). The route reads
// the unpacked kernel's occupancy, so these are the token-warp routes they always were; were the
// plan to move them, the packed kernel would lose its validation cases.
TEST(FusedLaunch, PackedTokenWarpValidationCasesTakeTheTokenWarp) {
  for (const RopeKvArgs& a :
       {mla(16, 64, 6001, CacheDType::fp8_e4m3), mla(16, 64, 4099, CacheDType::fp8_e5m2),
        mla(16, 64, 8192, CacheDType::fp8_e4m3), mla(16, 64, 2048)}) {
    const FusedLaunch l = route(a);
    EXPECT_EQ(l.kernel, FusedKernel::token_warp) << a.num_tokens;
    EXPECT_FALSE(l.roles) << a.num_tokens;
    EXPECT_EQ(l.ctas, (a.num_tokens + 3) / 4) << a.num_tokens;  // one warp a token
  }
}

TEST(FusedLaunch, UnknownOccupancyTakesNoShapeThatNeedsIt) {
  const FusedOccupancy none;  // the runtime could say nothing
  EXPECT_EQ(route(heads(32, 8, 128, 128, 1), none).kernel, FusedKernel::flat);
  EXPECT_EQ(route(heads(8, 1, 64, 64, 1, RopeStyle::gptj), none).kernel, FusedKernel::flat);
  EXPECT_EQ(route(heads(32, 8, 128, 64, 65536), none).kernel, FusedKernel::flat);
  FusedOccupancy no_wide = h200();
  no_wide.wide[1] = 0;
  EXPECT_EQ(route(heads(32, 32, 128, 64, 65536), no_wide).kernel, FusedKernel::strided);
}

TEST(FusedLaunch, GridsPastTheCtaLimitAreRefused) {
  const std::int64_t huge = std::int64_t{1} << 40;
  FusedLaunch l = route(heads(32, 8, 128, 128, huge));
  EXPECT_EQ(l.kernel, FusedKernel::too_large);
  EXPECT_GT(l.ctas, std::int64_t{0x7fffffff});
  EXPECT_EQ(route(heads(16, 2, 256, 64, huge, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::too_large);
  // Just below the limit a 16-bit cache still takes the strided grid.
  EXPECT_EQ(route(heads(32, 8, 128, 128, std::int64_t{1} << 20)).kernel, FusedKernel::strided);
}

// The public query asks check_launch_args first, as every launcher does, and touches nothing
// it refuses; both refusals need no GPU.
TEST(FusedLaunch, TheQueryRefusesWhatTheLauncherRefuses) {
  RopeKvFusedLaunch launch;
  launch.kernel = "untouched";
  launch.ctas = 7;
  const RopeKvArgs no_buffers = heads(32, 8, 128, 128, 1);  // every data pointer null
  ASSERT_NE(check_launch_args(no_buffers), nullptr);
  EXPECT_EQ(rope_kv_fused_launch(no_buffers, &launch), cudaErrorInvalidValue);
  EXPECT_STREQ(launch.kernel, "untouched");
  EXPECT_EQ(launch.ctas, 7);
  EXPECT_EQ(rope_kv_fused_launch(no_buffers, nullptr), cudaErrorInvalidValue);
}

// Round 44b: gpt-j row-major strided launches whose tokens are whole CTAs of at most three, with k
// rows that mix rotated and pass-through chunks, turn their warps each pass; the grid is the one
// the plain strided kernel would have had. Everything else keeps the plain loop: tokens that are
// not whole CTAs, more than three CTAs a token, full rotary, neox, fp8 (role-major there), and a
// turning kernel that would hold fewer CTAs a SM.
TEST(FusedLaunch, PinnedWarpsTurnOnTheStridedGrid) {
  FusedOccupancy o = h200(RopeStyle::gptj);
  o.strided[0] = o.wide[0] = o.strided_rotating = 16;
  struct Turned {
    int hq, hkv, d, rot;
    std::int64_t units;
  };
  for (const Turned t : {Turned{16, 2, 256, 128, 384}, Turned{16, 2, 256, 64, 256},
                         Turned{16, 4, 128, 64, 256}, Turned{8, 2, 128, 64, 128}}) {
    // From 4096 tokens: 8x2x128 at 2048 fits the resident CTAs at once (the flat grid).
    for (std::int64_t n : {4096, 16384, 65536, 262144}) {
      const RopeKvArgs a = heads(t.hq, t.hkv, t.d, t.rot, n, RopeStyle::gptj);
      const FusedLaunch l = route(a, o);
      EXPECT_EQ(l.kernel, FusedKernel::strided_rotating) << t.hq << "x" << t.d << " " << n;
      EXPECT_FALSE(l.roles);
      EXPECT_EQ(l.plan.units_per_token, t.units) << t.hq << "x" << t.d;
      EXPECT_EQ(l.threads, n * t.units);
      FusedOccupancy plain = o;
      plain.strided_rotating = 0;
      const FusedLaunch p = route(a, plain);
      EXPECT_EQ(p.kernel, FusedKernel::strided) << n;
      EXPECT_EQ(p.ctas, l.ctas) << n;  // the same grid
      plain.strided_rotating = 15;     // fewer CTAs a SM than the plain kernel: not taken
      EXPECT_EQ(route(a, plain).kernel, FusedKernel::strided) << n;
    }
  }
  const auto kernel = [&](const RopeKvArgs& a) { return route(a, o).kernel; };
  // 8x1x64 rot = 32: 48 units a token (turning it was 3-12 % slower; its warps mix roles, so
  // it runs in phases); 32x8x128 rot = 64: 512 units, four CTAs; 28x4x128 rot = 64: 352.
  EXPECT_EQ(kernel(heads(8, 1, 64, 32, 65536, RopeStyle::gptj)), FusedKernel::phased);
  EXPECT_EQ(kernel(heads(32, 8, 128, 64, 65536, RopeStyle::gptj)), FusedKernel::strided);
  EXPECT_EQ(kernel(heads(28, 4, 128, 64, 65536, RopeStyle::gptj)), FusedKernel::strided);
  // 8x8x128 full rotary: 384 units, pinned, but every slot costs the same.
  EXPECT_EQ(kernel(heads(8, 8, 128, 128, 65536, RopeStyle::gptj)), FusedKernel::strided);
  // Neox (role-major here) and fp8 (gpt-j partial rotary is role-major and flat there).
  EXPECT_NE(kernel(heads(16, 2, 256, 128, 65536)), FusedKernel::strided_rotating);
  EXPECT_NE(route(heads(16, 2, 256, 128, 65536, RopeStyle::gptj, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::strided_rotating);
  // Decode sizes keep their own kernels.
  EXPECT_NE(kernel(heads(16, 2, 256, 128, 8, RopeStyle::gptj)), FusedKernel::strided_rotating);
}

// The predicate itself, on plans: whole CTAs of at most three, and k rows of both kinds of chunk.
TEST(WorkPlan, StridedWarpsPinnedNeedsWholeCtasAndMixedKeyRows) {
  const WorkPlan p = make_fused_plan(heads(16, 2, 256, 128, 1, RopeStyle::gptj), 8);
  ASSERT_GT(p.k_rot, 0);
  ASSERT_GT(p.k_pass, 0);
  EXPECT_TRUE(strided_warps_pinned(p, 384, 128));
  EXPECT_TRUE(strided_warps_pinned(p, 128, 128));
  EXPECT_FALSE(strided_warps_pinned(p, 512, 128));  // four CTAs a token
  EXPECT_FALSE(strided_warps_pinned(p, 352, 128));  // not whole CTAs
  EXPECT_FALSE(strided_warps_pinned(p, 48, 128));
  const WorkPlan full = make_fused_plan(heads(8, 8, 128, 128, 1, RopeStyle::gptj), 8);
  EXPECT_EQ(full.k_pass, 0);
  EXPECT_FALSE(strided_warps_pinned(full, 384, 128));
}

// mla:16 gpt-j rot = 32 at `tokens`: a row-major launch whose warps mix roles, which keeps the
// kernel it would have without phases (MLA is excepted from them).
void expect_mla_row_major_mixed(std::int64_t tokens, FusedKernel kernel) {
  RopeKvArgs a = mla(16, 32, tokens);
  a.style = RopeStyle::gptj;
  const FusedLaunch l = route(a);
  EXPECT_FALSE(l.roles) << tokens;
  EXPECT_TRUE(row_major_warps_mix_roles(l.plan)) << tokens;
  EXPECT_EQ(l.kernel, kernel) << tokens;
}

// Round 51: row-major strided launches with a 16-bit cache whose warps mostly hold two or three
// roles take the units in phases, on the grid the strided kernel would have had. Launches already
// in whole warps a role, role-major ones, fp8 caches, MLA, and a phased kernel that holds fewer
// CTAs a SM keep their routes.
TEST(FusedLaunch, RowsWhoseWarpsMixRolesRunInPhases) {
  struct Phased {
    int hq, hkv, d, rot;
    RopeStyle style;
    std::int64_t units;
  };
  for (const Phased p :
       {Phased{8, 1, 64, 64, RopeStyle::neox, 44}, Phased{8, 1, 64, 64, RopeStyle::gptj, 80},
        Phased{8, 1, 64, 32, RopeStyle::gptj, 48}, Phased{14, 2, 64, 64, RopeStyle::neox, 80},
        Phased{6, 1, 64, 64, RopeStyle::neox, 36}}) {
    for (std::int64_t n : {16384, 65536, 262144}) {
      const RopeKvArgs a = heads(p.hq, p.hkv, p.d, p.rot, n, p.style);
      FusedOccupancy o = h200(p.style);
      const FusedLaunch l = route(a, o);
      EXPECT_EQ(l.kernel, FusedKernel::phased) << p.hq << "x" << p.d << " " << n;
      EXPECT_FALSE(l.roles);
      EXPECT_EQ(l.plan.units_per_token, p.units) << p.hq << "x" << p.d;
      EXPECT_EQ(l.threads, n * p.units);
      o.phased = 0;  // no phased kernel: the plain strided one, on the same grid
      const FusedLaunch plain = route(a, o);
      EXPECT_EQ(plain.kernel, FusedKernel::strided) << n;
      EXPECT_EQ(plain.ctas, l.ctas) << n;
      o.phased = o.strided[0] - 1;  // fewer CTAs a SM than the strided kernel: not taken
      EXPECT_EQ(route(a, o).kernel, FusedKernel::strided) << n;
    }
  }
  // Whole warps a role: 28x4x128 (224 + 32 + 64 units), 16x2x256, 32x32x128 full rotary.
  EXPECT_EQ(route(heads(28, 4, 128, 128, 65536)).kernel, FusedKernel::strided);
  EXPECT_EQ(route(heads(16, 2, 256, 256, 65536)).kernel, FusedKernel::strided);
  EXPECT_EQ(route(heads(32, 32, 128, 128, 16384)).kernel, FusedKernel::strided);
  // Neox partial rotary runs role-major; fp8 caches have no phased kernel.
  EXPECT_NE(route(heads(8, 1, 64, 32, 65536)).kernel, FusedKernel::phased);
  EXPECT_NE(route(heads(8, 1, 64, 64, 65536, RopeStyle::neox, CacheDType::fp8_e4m3)).kernel,
            FusedKernel::phased);
  // MLA keeps the strided kernel although mla:16 gpt-j rot = 32's warps mix roles (round 51: 2.5 %
  // slower at 65k in phases).
  expect_mla_row_major_mixed(65536, FusedKernel::strided);
}

// Round 53: where such a launch fits the resident CTAs at once (the flat grid, one unit a thread),
// the phased kernel runs on that grid, one pass a thread. Without it (or with fewer CTAs a SM than
// the strided kernel) the flat kernel, on the same grid.
TEST(FusedLaunch, FlatRowsWhoseWarpsMixRolesRunInPhases) {
  struct Flat {
    int hq, hkv, d, rot;
    RopeStyle style;
    std::int64_t tokens, units;
  };
  for (const Flat f : {Flat{8, 1, 64, 64, RopeStyle::neox, 2048, 44},
                       Flat{8, 1, 64, 32, RopeStyle::gptj, 2048, 48},
                       Flat{6, 1, 64, 64, RopeStyle::neox, 4096, 36},
                       Flat{12, 2, 64, 64, RopeStyle::neox, 1024, 72},
                       Flat{14, 2, 64, 32, RopeStyle::gptj, 1024, 88}}) {
    const RopeKvArgs a = heads(f.hq, f.hkv, f.d, f.rot, f.tokens, f.style);
    FusedOccupancy o = h200(f.style);
    const FusedLaunch l = route(a, o);
    EXPECT_EQ(l.kernel, FusedKernel::phased) << f.hq << "x" << f.d << " " << f.tokens;
    EXPECT_FALSE(l.roles);
    EXPECT_EQ(l.plan.units_per_token, f.units) << f.hq << "x" << f.d;
    EXPECT_EQ(l.threads, f.tokens * f.units);
    EXPECT_EQ(l.ctas, (l.threads + 127) / 128);  // the flat grid: one unit a thread
    o.phased = 0;
    const FusedLaunch plain = route(a, o);
    EXPECT_EQ(plain.kernel, FusedKernel::flat) << f.hq << "x" << f.d;
    EXPECT_EQ(plain.ctas, l.ctas);
    o.phased = o.strided[0] - 1;
    EXPECT_EQ(route(a, o).kernel, FusedKernel::flat) << f.hq << "x" << f.d;
  }
  // Flat launches in whole warps a role keep the flat kernel: 14x2x64 gpt-j full rotary (144
  // units) at 1024 tokens. So does MLA: mla:16 gpt-j rot = 32 at 1024 tokens, whose warps mix
  // roles, is flat and row-major.
  EXPECT_EQ(route(heads(14, 2, 64, 64, 1024, RopeStyle::gptj)).kernel, FusedKernel::flat);
  EXPECT_FALSE(
      row_major_warps_mix_roles(make_fused_plan(heads(14, 2, 64, 64, 1, RopeStyle::gptj), 8)));
  expect_mla_row_major_mixed(1024, FusedKernel::flat);
}

// The predicate, on plans: role boundaries inside warps, at least half a boundary a warp.
TEST(WorkPlan, RowMajorWarpsMixRolesCountsBoundariesInsideWarps) {
  const auto mixes = [](int hq, int hkv, int d, int rot, RopeStyle style = RopeStyle::neox) {
    return row_major_warps_mix_roles(make_fused_plan(heads(hq, hkv, d, rot, 1, style), 8));
  };
  EXPECT_TRUE(mixes(8, 1, 64, 64));                   // 44 units: 84 boundaries in 44 warps
  EXPECT_TRUE(mixes(14, 2, 64, 64));                  // 80 units: 64 in 80
  EXPECT_TRUE(mixes(8, 1, 64, 64, RopeStyle::gptj));  // 80 units: q 64 aligned, k 8, v 8
  EXPECT_FALSE(mixes(28, 4, 128, 128));               // 320 units, every segment whole warps
  EXPECT_FALSE(mixes(40, 8, 80, 80));                 // 320 units: 64 in 320
  EXPECT_FALSE(mixes(12, 2, 128, 128));               // 144 units: 48 in 144
  EXPECT_FALSE(row_major_warps_mix_roles(make_fused_plan(mla(128, 64, 1), 8)));  // 84 in 580
  // The count against a direct walk over 32 tokens' warps.
  for (const int hq : {4, 6, 8, 12, 14, 28, 40}) {
    for (const int d : {64, 80, 128}) {
      const WorkPlan p = make_fused_plan(heads(hq, 2, d, d, 1), 8);
      std::int64_t inside = 0;
      for (std::int64_t t = 0; t < 32; ++t) {
        for (const std::int64_t start : {std::int64_t{0}, p.q_end, p.k_end}) {
          const std::int64_t at = t * p.units_per_token + start;
          inside += at / 32 * 32 != at;  // not a warp's first unit
        }
      }
      EXPECT_EQ(row_major_warps_mix_roles(p), 2 * inside >= p.units_per_token) << hq << "x" << d;
    }
  }
}

// Every work index of a phased launch names one (token, unit) and every (token, unit) is named
// once; within a phase the indices run through the tokens in order, each token's units in order.
TEST(WorkPlan, PhaseUnitNamesEveryUnitOnce) {
  for (const RopeKvArgs& shape : {heads(8, 1, 64, 64, 1), heads(14, 2, 64, 64, 1),
                                  heads(8, 1, 64, 32, 1, RopeStyle::gptj), mla(16, 64, 1)}) {
    for (const std::int64_t tokens : {1, 7, 33}) {
      RopeKvArgs a = shape;
      a.num_tokens = a.num_cache_tokens = tokens;
      const WorkPlan p = make_fused_plan(a, 8);
      const PhaseSplit ph = make_phase_split(a, p);
      const std::int64_t total = tokens * p.units_per_token;
      std::vector<int> seen(static_cast<std::size_t>(total), 0);
      std::uint32_t prev_t = 0, prev_u = 0;
      for (std::uint32_t g = 0; g < total; ++g) {
        std::uint32_t t, u;
        phase_unit(ph, g, t, u);
        ASSERT_LT(t, static_cast<std::uint32_t>(tokens)) << g;
        ASSERT_LT(u, static_cast<std::uint32_t>(p.units_per_token)) << g;
        const int phase = u < p.q_end ? 0 : u < p.k_end ? 1 : 2;
        EXPECT_EQ(phase, g < ph.q_total ? 0 : g < ph.k_total ? 1 : 2) << g;
        // Within a phase: the next unit, or the next token's first.
        if (g > 0 && g != ph.q_total && g != ph.k_total) {
          EXPECT_TRUE((t == prev_t && u == prev_u + 1) || (t == prev_t + 1 && u < prev_u)) << g;
        }
        ++seen[t * p.units_per_token + u];
        prev_t = t;
        prev_u = u;
      }
      for (std::int64_t i = 0; i < total; ++i)
        ASSERT_EQ(seen[static_cast<std::size_t>(i)], 1) << i;
    }
  }
}

TEST(FusedLaunch, EveryKernelHasADistinctName) {
  const FusedKernel all[] = {
      FusedKernel::too_large,    FusedKernel::row_warp,         FusedKernel::decode_half,
      FusedKernel::decode_roles, FusedKernel::prefill_half,     FusedKernel::wide,
      FusedKernel::flat_wide,    FusedKernel::strided,          FusedKernel::flat,
      FusedKernel::token_warp,   FusedKernel::strided_rotating, FusedKernel::phased};
  for (FusedKernel a : all) {
    for (FusedKernel b : all) {
      if (a != b) {
        EXPECT_STRNE(fused_kernel_name(a), fused_kernel_name(b));
      }
    }
  }
  for (FusedKernel k : all)
    EXPECT_STRNE(fused_kernel_name(k), "unknown");
}

}  // namespace
}  // namespace rkv
