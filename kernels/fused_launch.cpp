#include "fused_launch.h"

#include "decode_role_params.h"
#include "row_warp_params.h"

#include <algorithm>
#include <limits>

namespace rkv {
namespace {

// Where fp8 caches take the strided grid, besides the long launches (long_launch): row-major
// launches of GQA shapes with long q rows, gpt-j from 3200 elements a token (40x8x80 and up; its
// fp8 strided kernel runs 16 CTAs a SM), 3-16 % faster at 2048-65k tokens, neox from 4096 (9 CTAs
// a SM) where a thread of one wave runs >= 32 units (16k tokens and up; fp8_neox_too_short),
// 5.9-13.3 % faster (session 21, rounds 6-7); and role-major (partial rotary) neox launches of GQA
// shapes with heads of at most 128 elements from 16 units a thread, 3.8-12.3 % faster at 16k-65k
// (32x8x128, 64x8x128, 40x8x80 and 28x4x128 rot = 64; session 22, round 9). Each was fitted on
// session 21's round 5, where fp8 on the strided grid everywhere lost on MHA (32x32x128 at
// 2048-16k), on short q rows (8x1x64, mla:16), on 16x2x256 rot = 128 (8-10 %) and at 2048 tokens.
bool fp8_strided_pays(const RopeKvArgs& a, bool roles) {
  if (a.num_kv_heads >= a.num_q_heads) return false;
  if (roles) return a.style == RopeStyle::neox && !mla_layout(a) && a.q_head_size <= 128;
  const std::int64_t q_row = std::int64_t{a.num_q_heads} * a.q_head_size;
  return a.style == RopeStyle::gptj ? q_row >= 3200 : q_row >= 4096;
}

// Neox fp8 launches that fp8_strided_pays admits but that are too short for the strided grid:
// below 32 units a thread of one wave (16 in role-major order, where 28x4x128 rot = 64 at 16k
// tokens runs 25 and gained 6.4 %; at 2048 tokens every such launch lost up to 5 %).
bool fp8_neox_too_short(const RopeKvArgs& a, bool roles, std::int64_t resident,
                        std::int64_t threads) {
  return a.cache_dtype != CacheDType::auto_ && a.style == RopeStyle::neox &&
         threads < resident * kFusedThreads * (roles ? 16 : 32);
}

// Launches long enough to run the strided grid in 16 waves (plan_fused_launch's in_waves, which
// says why): a thread of one wave of 9 CTAs a SM would run >= 100 units. Session 20 fitted 200
// for row-major launches of whole-line rows, where its 100-200 band split by shape (16x2x256 full
// rotary 2 % slower in waves), and 100 in role-major order and for rows that straddle 128-byte
// lines (40x8x80 gpt-j at 65k 2.8-8.6 % faster in waves; session 22, round 10). On the kernels
// since rewritten, row-major launches of that band gain too (round 65, an H100: the 24 moved
// launches of its A/B 3.4 % faster in geometric mean, each level or up to 6.1 % faster): 32x8x128
// neox at 65k (193 units) and 32x32x128 at 16k (110-165), fp8 MHA among them, which leaves the
// flat two-chunk grid there. Counted per SM, at the 9 CTAs a SM of the neox kernels the threshold
// was fitted on, whatever the kernel's own occupancy: the cost of one wave is the slow SMs' finish,
// which scales with an SM's work, not a thread's (round 47, an H100: the gpt-j launches at 65k
// and fp8 16x2x256 neox rot = 128 at 65k 0.8-5.6 % faster in waves).
bool long_launch(int sms, std::int64_t threads) {
  constexpr std::int64_t kFittedCtasPerSm = 9;
  constexpr std::int64_t kLongUnitsPerThread = 100;
  return sms > 0 && threads >= sms * kFittedCtasPerSm * kFusedThreads * kLongUnitsPerThread;
}

// An fp8 cache on an MHA shape: as many kv heads as q heads, not MLA.
bool fp8_mha(const RopeKvArgs& a) {
  return a.cache_dtype != CacheDType::auto_ && !mla_layout(a) && a.num_kv_heads == a.num_q_heads;
}

// Fp8 flat launches whose copy units (k pass-through and v) move two chunks each: on the flat
// grid a copy unit's chain (slot, scale, load, quotients, store) is its thread's whole life, and
// two loads in flight a thread paid on MHA, where k and v rows are as many as q rows (32x32x128 at
// 2048-65k tokens: full rotary 2.4-6.2 % faster, rot = 64 8.6-12.0 %; session 23, round 14), not
// on GQA with a quarter of the units copies (40x8x80 2-5 % slower) nor on MLA (mla:16 -3 to +9 %;
// rounds 12-13).
// Only where the two-chunk grid passes one wave of its resident CTAs (`one_wave`): within one
// wave the launch lasts one thread's chain, and fewer threads with more work did not shorten it
// (gpt-j rot = 64 at 128 tokens 4-6 % slower, round 13).
bool fp8_flat_wide_pays(const RopeKvArgs& a, const WorkPlan& p, std::int64_t wide_ctas,
                        std::int64_t one_wave) {
  return fp8_mha(a) && copies_pair_up(p) && wide_ctas > one_wave;
}

std::int64_t ctas_for(std::int64_t threads) {
  return (threads + kFusedThreads - 1) / kFusedThreads;
}

// Half of one wave of resident CTAs: the decode-size shapes' bound (0 when unknown).
std::int64_t half_a_wave(const FusedOccupancy& o, int per_sm) {
  return std::int64_t{per_sm} * o.sms / 2;
}

FusedLaunch make_launch(FusedKernel kernel, bool roles, const WorkPlan& plan,
                        const RoleMajorSplit& split, std::int64_t threads, std::int64_t ctas) {
  FusedLaunch l;
  l.kernel = kernel;
  l.roles = roles;
  l.plan = plan;
  l.split = split;
  l.threads = threads;
  l.ctas = ctas;
  return l;
}

// Decode sizes: role-major order with every segment padded to whole warps, so that no warp holds
// two roles (whose chains of round trips it would run one after the other), where the row-major
// order or the compact segments mix them (14 % faster on 28 decode cases, no case confirmed
// slower: results/NOTES.md, "decode role warps", sessions 15-17). False where that does not apply
// or the grid passes half a wave of the kernel's resident CTAs (per_sm a SM). Launches of at most
// kCompactDecodeCtasPerSm CTAs a SM whose fields fit (decode_role_params_fit) take the kernel's
// compact parameters: there a lane's time is its chain of round trips, which they shorten (round
// 22: up to 11 % faster); at 5.8 CTAs a SM the compact kernel's extra instructions cost 5-8 %.
bool decode_role_warps(const RopeKvArgs& a, const WorkPlan& p, const FusedOccupancy& o, int per_sm,
                       FusedKernel kernel, FusedLaunch& out) {
  const RoleMajorSplit warps = make_role_major_split(a, p, true);
  const bool rows_mix_roles = p.q_pass > 0 || p.k_pass > 0;
  const std::int64_t threads = a.num_tokens * launched_units_per_token(p, warps, true);
  const std::int64_t ctas = ctas_for(threads);
  if ((warps.padded_units_per_token == 0 && !rows_mix_roles) || ctas > half_a_wave(o, per_sm))
    return false;
  out = make_launch(kernel, true, p, warps, threads, ctas);
  out.compact =
      ctas <= std::int64_t{kCompactDecodeCtasPerSm} * o.sms && decode_role_params_fit(a, p, warps);
  return true;
}

}  // namespace

FusedLaunch plan_fused_launch(const RopeKvArgs& a, int vec, const FusedOccupancy& o) {
  constexpr std::int64_t kMaxCtas = std::numeric_limits<int>::max();
  const WorkPlan plan = make_fused_plan(a, vec);
  FusedLaunch l;

  // Decode sizes only: neox rows of rotation only take the row-warp layout where it fills at most
  // half of one wave (8 of 16 CTAs a SM). There its one-chunk lanes were 2-40 % faster than the
  // two-chunk units; at 9.7-11.6 CTAs a SM its doubled thread count cost 4.5-8.4 %, and on the
  // strided grid 9.8-13.5 % with fp8 caches (results/NOTES.md, session 13).
  if (row_warp_layout(a, plan)) {
    const RowWarpPlan rows = make_row_warp_plan(a, plan);
    const std::int64_t lanes = a.num_tokens * rows.lanes_per_token;
    if (ctas_for(lanes) <= half_a_wave(o, o.row_warp) && row_warp_params_fit(a, rows)) {
      l = make_launch(FusedKernel::row_warp, false, plan, RoleMajorSplit{}, lanes, ctas_for(lanes));
      l.rows = rows;
      l.compact = true;  // the row-warp kernel has no other parameters (row_warp_params.h)
      return l;
    }
  }
  // Decode sizes, any plan the row-warp layout did not take: whole warps a role, with neox
  // rotation units of half a chunk where those kernels exist (every decode case faster or within
  // +1.2 %: session 18's A/B, round 3).
  const bool half_units = neox_half_units(a.style, a.cache_dtype, vec);
  if (half_units && decode_role_warps(a, make_fused_plan(a, vec, 1, vec / 2), o, o.half,
                                      FusedKernel::decode_half, l))
    return l;
  if (decode_role_warps(a, plan, o, o.decode_roles, FusedKernel::decode_roles, l)) return l;

  // Beyond decode sizes, MLA with one kv head whose q rows are rotated in place
  // (token_warp_layout): one warp a token, the token's index math, slot, scales and cos/sin
  // entries once a lane, and several loads in flight a lane. Neox full rotary only where its grid
  // fills at least one wave of its resident CTAs (6 CTAs a SM for 16-bit inputs): from half a
  // wave it was 3 % slower at 2048 tokens (round 34). Partial rotary and gpt-j wherever the
  // decode routes above leave them: 11-36 % faster than the flat and prefill_half grids at
  // 640-1280 tokens, and level at 768 for gpt-j full rotary (round 36, on an H100; from half a
  // wave, 15-26 % and 1-9 % at 2048-3072, round 34b). With a 16-bit cache (full rows only) up to
  // a wave: gpt-j from two and a half CTAs a SM, neox from two. Round 37c, on an H100: 4-25 %
  // faster at 1344-3072 tokens, either style. Round 38: neox 6-26 % faster at 1088-1312, where its
  // unit route is the strided grid's one wave. Below that the unit kernels, which have no quotient
  // to compute there, were as fast or faster (gpt-j +3 % at 272 CTAs, +10 % at 160; neox level at
  // 264; rounds 37, 37b and 38). From a wave up the H100 could not judge it (round 32: its base
  // already ran at 90-93 % of copy bandwidth), so those launches keep the unit grids.
  if (o.token_warp > 0 && token_warp_pays(a, plan)) {
    const std::int64_t lanes = a.num_tokens * 32;
    const std::int64_t ctas = ctas_for(lanes);
    const bool fills_a_wave = ctas >= std::int64_t{o.sms} * o.token_warp;
    const bool fp8_below_a_wave = plan.k_pass > 0 || a.style == RopeStyle::gptj;
    // Where a 16-bit cache's band starts, in halves of a CTA a SM: neox 2, gpt-j 2.5.
    const std::int64_t band_start_halves = a.style == RopeStyle::neox ? 4 : 5;
    const bool sixteen_bit_band =
        !fills_a_wave && 2 * ctas >= band_start_halves * std::int64_t{o.sms};
    if (a.cache_dtype == CacheDType::auto_ ? sixteen_bit_band : fp8_below_a_wave || fills_a_wave)
      return make_launch(ctas > kMaxCtas ? FusedKernel::too_large : FusedKernel::token_warp, false,
                         plan, RoleMajorSplit{}, lanes, ctas);
  }

  // Fp8 caches take the flat grid (but where fp8_strided_pays), with half-chunk units where a token
  // has few q rotation units (neox_half_units_pay; 16x2x256 rot = 64 and mla:16 rot = 32 7-12 %
  // faster at 16k-65k, session 18's A/B, round 3), at 16 CTAs a SM (another 6-9 % on those two at
  // 16k-65k, session 19).
  const bool roles = role_major_units(a, plan) || mla_fp8_role_warps(a, plan);
  if (half_units && roles && neox_half_units_pay(a, plan)) {
    const WorkPlan half = make_fused_plan(a, vec, 1, vec / 2);
    const RoleMajorSplit split = make_role_major_split(a, half);
    const std::int64_t threads = a.num_tokens * launched_units_per_token(half, split, true);
    const std::int64_t ctas = ctas_for(threads);
    return make_launch(ctas > kMaxCtas ? FusedKernel::too_large : FusedKernel::prefill_half, true,
                       half, split, threads, ctas);
  }

  // Role-major units where a row mixes rotation and pass-through units and the order pays
  // (role_major_units); row-major everywhere else.
  const RoleMajorSplit split = make_role_major_split(a, plan);
  const std::int64_t unit_count = launched_units_per_token(plan, split, roles);
  const std::int64_t threads = a.num_tokens * unit_count;
  const std::int64_t ctas = ctas_for(threads);
  if (ctas > kMaxCtas)
    return make_launch(FusedKernel::too_large, roles, plan, split, threads, ctas);
  const std::int64_t one_wave =
      o.sms > 0
          ? strided_grid_ctas(std::int64_t{o.sms} * o.strided[roles], unit_count, kFusedThreads)
          : 0;
  // The strided grid: always with a 16-bit cache; with fp8 where fp8_strided_pays and wherever
  // the launch is long enough to run in waves, whatever its shape (32x32x128 and the rot = 64
  // launches of 32x8x128, 64x8x128 and 40x8x80 at 65k tokens: 4.1-12.4 % faster, session 22,
  // round 8; the flat grid's CTAs of one unit a thread cost more there than the waves' finish).
  const bool strided_grid = a.cache_dtype == CacheDType::auto_ || fp8_strided_pays(a, roles) ||
                            long_launch(o.sms, threads);
  const std::int64_t resident = strided_grid ? one_wave : 0;
  // Rows whose sectors the strided grid's drifting CTAs would share out of step stay on the flat
  // grid: neox half rows of 80-wide heads, and rotation windows that end inside a sector, either
  // style (40x8x80 rot = 40: 2-15 % faster, session 17's A/B). So do MLA's sparse rotation
  // windows where they are most of the token's units (mla:128 rot = 32: 9-15 % faster at 16k-65k,
  // session 18's A/B).
  const bool flat_pays = neox_half_rows_split_sectors(a, plan) ||
                         rotation_window_splits_sectors(a, plan) ||
                         mla_rotation_windows_dominate(a, plan);
  // Row-major launches with a 16-bit cache whose warps would mostly straddle roles
  // (row_major_warps_mix_roles) take the units in phases, on the grid the flat or strided kernel
  // would have had, where the phased kernel holds at least the strided kernel's CTAs a SM (so a
  // grid sized by that occupancy stays resident) and its 32-bit indices hold the units and the
  // stride. MLA excepted: mla:16 gpt-j rot = 32 at 65k was 2.5 % slower in phases (round 51, on an
  // H100), where every other shape it moved was 1-20 % faster (round 52: the strided grid; round
  // 53: the flat grid).
  const auto phases_pay = [&](std::int64_t grid) {
    return !roles && a.cache_dtype == CacheDType::auto_ && !mla_layout(a) && o.phased > 0 &&
           o.phased >= o.strided[0] && row_major_warps_mix_roles(plan) &&
           threads <= std::numeric_limits<std::int32_t>::max() &&
           threads + grid * kFusedThreads <= std::numeric_limits<std::uint32_t>::max();
  };
  // Fp8 MHA launches in role-major order keep the flat grid with two-chunk copies even when long
  // (60-75 % of their units are copies; session 23, round 16).
  const bool fp8_mha_roles_stay_flat = roles && o.flat_wide[roles] > 0 && fp8_mha(a);
  if (resident <= 0 || ctas <= resident || flat_pays ||
      fp8_neox_too_short(a, roles, resident, threads) || fp8_mha_roles_stay_flat) {
    if (o.flat_wide[roles] > 0 && copies_pair_up(plan)) {
      const WorkPlan wide = make_fused_plan(a, vec, 2);
      const RoleMajorSplit wide_split = make_role_major_split(a, wide);
      const std::int64_t wide_threads =
          a.num_tokens * launched_units_per_token(wide, wide_split, roles);
      const std::int64_t wide_ctas = ctas_for(wide_threads);
      if (fp8_flat_wide_pays(a, plan, wide_ctas, std::int64_t{o.sms} * o.flat_wide[roles]))
        return make_launch(FusedKernel::flat_wide, roles, wide, wide_split, wide_threads,
                           wide_ctas);
    }
    // The rest of MLA full rotary (fp8: mla:128; 16-bit caches: every head count): whole warps a
    // role on the flat grid only, where the role-major grid is as large as the row-major one or a
    // little larger. Fp8: 1.7-17.8 % faster (mla:128 neox 256-8192 tokens, gpt-j 128; round 25,
    // session 32, on an H100); round 24's all-MLA build, which also moved mla:128 off the strided
    // grid, lost up to 9 % there. 16-bit caches: 5.9-10.9 % faster (mla:16 neox 1024, mla:128
    // neox 256 and gpt-j 128; round 26b).
    const std::int64_t role_threads = a.num_tokens * launched_units_per_token(plan, split, true);
    if (!roles && mla_full_rows(a, plan) && ctas_for(role_threads) <= kMaxCtas) {
      return make_launch(FusedKernel::flat, true, plan, split, role_threads,
                         ctas_for(role_threads));
    }
    return make_launch(phases_pay(ctas) ? FusedKernel::phased : FusedKernel::flat, roles, plan,
                       split, threads, ctas);
  }
  // Long launches run the grid of resident CTAs in 16 waves: every CTA of one wave has the same
  // work, the SMs do not move bytes equally fast, and the fast ones then sit idle while the slow
  // finish (ncu: 8-11 % of a 65k launch; the flat grid 1 %). In waves, an SM that finishes early
  // takes more CTAs. Only where a thread of one wave (at 9 CTAs a SM: long_launch) would run
  // >= 100 units: below that the shorter CTAs cost more than the finish (2-12 % slower at 16k,
  // session 20's A/B, rounds 1-3).
  const auto in_waves = [&](std::int64_t wave, std::int64_t units, std::int64_t unit_threads) {
    constexpr std::int64_t kWaves = 16;
    if (!long_launch(o.sms, unit_threads)) return wave;
    return std::min(strided_grid_ctas(wave * kWaves, units, kFusedThreads), ctas_for(unit_threads));
  };

  // Two chunks per copy unit, on the strided grid only (large N); in role-major order where
  // copies dominate. The two-chunk plan has its own segments, which may be padded to warps where
  // the one-chunk plan's are not (and the other way round): its own count. Where its units fit
  // in the resident CTAs at once (mla:16 rot = 32 at 2048 tokens), the one-chunk strided grid.
  const bool wide_pays = roles ? role_major_copies_dominate(a, plan) : wide_copy_units(a, plan);
  if (wide_pays && copies_pair_up(plan) && o.wide[roles] > 0) {
    const WorkPlan wide = make_fused_plan(a, vec, 2);
    const RoleMajorSplit wide_split = make_role_major_split(a, wide);
    const std::int64_t wide_units = launched_units_per_token(wide, wide_split, roles);
    const std::int64_t wide_threads = a.num_tokens * wide_units;
    const std::int64_t wide_ctas =
        strided_grid_ctas(std::int64_t{o.sms} * o.wide[roles], wide_units, kFusedThreads);
    if (ctas_for(wide_threads) > wide_ctas)
      return make_launch(FusedKernel::wide, roles, wide, wide_split, wide_threads,
                         in_waves(wide_ctas, wide_units, wide_threads));
  }
  // Row-major launches whose warps would keep their slots of a token (strided_warps_pinned) turn
  // them, where the turning kernel holds as many CTAs a SM (the grid is then the same).
  const bool rotate = !roles && o.strided_rotating > 0 && o.strided_rotating == o.strided[0] &&
                      strided_warps_pinned(plan, unit_count, kFusedThreads);
  // Row-major launches whose warps would mostly straddle roles: in phases (phases_pay).
  const std::int64_t grid = in_waves(resident, unit_count, threads);
  const FusedKernel kernel = rotate             ? FusedKernel::strided_rotating
                             : phases_pay(grid) ? FusedKernel::phased
                                                : FusedKernel::strided;
  return make_launch(kernel, roles, plan, split, threads, grid);
}

const char* fused_kernel_name(FusedKernel k) {
  switch (k) {
    case FusedKernel::too_large:
      return "too_large";
    case FusedKernel::row_warp:
      return "row_warp";
    case FusedKernel::decode_half:
      return "decode_half";
    case FusedKernel::decode_roles:
      return "decode_roles";
    case FusedKernel::prefill_half:
      return "prefill_half";
    case FusedKernel::token_warp:
      return "token_warp";
    case FusedKernel::wide:
      return "wide";
    case FusedKernel::flat_wide:
      return "flat_wide";
    case FusedKernel::strided:
      return "strided";
    case FusedKernel::strided_rotating:
      return "strided_rotating";
    case FusedKernel::phased:
      return "phased";
    case FusedKernel::flat:
      return "flat";
  }
  return "unknown";
}

}  // namespace rkv
