// How the fused kernel splits a token's work into independent units, one per thread.
//
// A unit is one VEC-element chunk (two for neox rotation, which pairs a chunk with the chunk R/2
// later). A token's units are laid out [q rows][k rows][v rows]; inside a row the rotation units
// come first, then the pass-through units (dims outside the rotated window), which exist only when
// they must be copied somewhere (q into query_out, k into the cache). Every thread has work at
// every shape: GQA/MQA only shrink the k and v segments.
//
// That is the row-major order. The role-major order ([q rotation][q pass-through][k rotation]
// [k pass-through][v], each head-major) differs only where rows mix rotation and pass-through
// units (partial rotary); there it gives each warp one branch of the kernel instead of both in
// series. role_major_units() picks the order; RoleMajorSplit carries what it needs.
#pragma once

#include <cstdint>

#include "fast_divmod.h"
#include "host_device.h"
#include "rope_kv.h"

namespace rkv {

struct WorkPlan {
  int vec = 0;                        // elements per access
  int q_rot = 0, q_pass = 0;          // units per q row
  int k_rot = 0, k_pass = 0;          // units per k row
  int v_units = 0;                    // units per v row
  int q_units = 0, k_units = 0;       // q_rot + q_pass, k_rot + k_pass
  std::int64_t q_end = 0, k_end = 0;  // token-local unit index where the k / v segments start
  std::int64_t units_per_token = 0;
  // The same sizes as dividers, for indices below 2^31 (the kernel checks and falls back).
  FastDivmod per_token, per_q_row, per_k_row, per_v_row, per_block;
};

// What the role-major order adds to a plan: the token-local index where the q / k pass-through
// segments start, and each segment's units per head as dividers. A separate kernel parameter
// after the plan, so that the row-major kernels keep their parameter layout (and their code:
// ptxas gave the fp8 neox kernel two more registers when these fields joined WorkPlan).
struct RoleMajorSplit {
  std::int64_t q_rot_end = 0, k_rot_end = 0;
  FastDivmod per_q_rot, per_q_pass, per_k_rot, per_k_pass;
  // Where a token's units are not whole warps, each of the five segments starts on a warp
  // boundary (a multiple of 32 units) and tokens are padded to one, so that no warp holds two
  // roles or two tokens; the gaps are idle lanes. 0: not padded (the compact order). Measured on
  // the H200 (results/NOTES.md, sessions 10-11): 16x2x256 fp8 rot = 64 7 % faster, MLA 128 rot =
  // 32 with fp8 at 2048 tokens 12 %, nothing more than 1.4 % slower.
  std::int64_t padded_units_per_token = 0;
  FastDivmod per_padded_token;
  int seg_start[5] = {}, seg_len[5] = {};  // per segment: padded start, units
};

// True when any token can be written to the cache at all.
inline bool writes_cache(const RopeKvArgs& a) {
  return a.slot_mapping != nullptr && a.num_cache_tokens > 0;
}

// Units of rotation per row: neox pairs two chunks per unit, gptj holds the pairs in one chunk.
inline int rotation_units(const RopeKvArgs& a, int vec) {
  return a.style == RopeStyle::neox ? a.rot_dim / 2 / vec : a.rot_dim / vec;
}

// `copy_chunks` = 2: each k pass-through and v unit moves two chunks, c and c + (row's units),
// so a warp's loads stay contiguous; needs copies_pair_up() of the one-chunk plan.
// `rot_vec`: elements per rotation chunk where it is not `vec` (neox_half_units), else 0.
WorkPlan make_fused_plan(const RopeKvArgs& a, int vec, int copy_chunks = 1, int rot_vec = 0);

// MLA's layout: V's rows (the 512-wide latent) wider than K's (the 64-wide k_pe).
inline bool mla_layout(const RopeKvArgs& a) {
  return a.v_head_size > a.k_head_size;
}

// Copy units (k pass-through and v) of a token in a plan.
inline std::int64_t copy_units_per_token(const RopeKvArgs& a, const WorkPlan& p) {
  return std::int64_t{a.num_kv_heads} * (p.k_pass + p.v_units);
}

// Whether the strided grid's copy units move two chunks each (rope_kv_fused_wide_kernel), given
// the one-chunk plan: where V's rows are wider than K's (MLA's 512-wide latent), rotary is full,
// and copies are at least a quarter of a token's units. Measured on the H200 (results/NOTES.md,
// sessions 7 and 8): mla:16 (copies 32-48 % of the units) 4-15 % slower without them; mla:128
// (6-11 %) unchanged or up to 6 % slower with them. Partial rotary is left out by the A/B's rule
// (a gain at every token count): neox pairs gained 5-7 % at 16k-65k tokens but nothing at 2048,
// gpt-j pairs lost. Also needs copies_pair_up() of the plan.
inline bool wide_copy_units(const RopeKvArgs& a, const WorkPlan& one_chunk) {
  if (!mla_layout(a) || a.rot_dim < a.k_head_size) return false;
  return 4 * copy_units_per_token(a, one_chunk) >= one_chunk.units_per_token;
}

// Two-chunk copy units in role-major order only where copy units are at least two thirds of a
// token's units: 32x32x128 rot = 64 (75 % copies) and mla:16 rot = 32 (67 %) 5-6 % faster, while
// 40x8x80 (33-50 %) lost 6-7 % when every role-major plan took them (results/NOTES.md, sessions
// 10-11).
inline bool role_major_copies_dominate(const RopeKvArgs& a, const WorkPlan& one_chunk) {
  return 3 * copy_units_per_token(a, one_chunk) >= 2 * one_chunk.units_per_token;
}

// Whether the fused kernel takes its units in role-major order: where a q or k row mixes rotation
// and pass-through units, for neox always and for gpt-j with an fp8 cache outside MLA. Measured
// on the H200 (results/NOTES.md, sessions 9 and 10): neox partial rotary 2-10 % faster with 16-bit
// caches, 6-22 % with fp8; gpt-j with fp8 1.9-17 % faster at 16k-65k tokens (32x32x128 the 17 %),
// where the per-element quotient makes the rotation's warps long. Gpt-j with 16-bit caches, whose
// rotation unit is one cheap chunk, went either way (-17 to +7 %), and MLA gpt-j with fp8 gained
// nothing (mla:16 up to 2 % slower), so those stay row-major. Without pass-through units the two
// orders are the same.
inline bool role_major_units(const RopeKvArgs& a, const WorkPlan& p) {
  const bool order_pays =
      a.style == RopeStyle::neox || (a.cache_dtype != CacheDType::auto_ && !mla_layout(a));
  return order_pays && (p.q_pass > 0 || p.k_pass > 0);
}

// MLA with full rotary (mla_full_rows): its rows hold no pass-through units, so the two orders
// are the same, but a token's units (mla:16: 64 q, 4 k_pe, 64 latent) are not whole warps, and the
// row-major flat grid's warps straddle roles and tokens. ncu of mla:16 neox at 16k tokens: 17.9 of
// 32 threads active a warp, the quotient's branches run one after the other. Taken in role-major
// order, whose segments are padded to whole warps (make_role_major_split), no warp holds two.
// Only where copies are at least a quarter of the units (mla:16, not mla:128's many q rows):
// mla:16 10-19 % faster at 2048-65k with neox, 1-13 % with gpt-j; taken on mla:128 too, up to
// 9 % slower (round 24, session 32, on an H100). With a 16-bit cache (the wide kernel's two-chunk
// copies) whole warps did not pay on the strided grid: -4.9 to +3.1 % (round 26).
inline bool mla_full_rows(const RopeKvArgs& a, const WorkPlan& p) {
  return mla_layout(a) && p.q_pass == 0 && p.k_pass == 0;
}
inline bool mla_fp8_role_warps(const RopeKvArgs& a, const WorkPlan& p) {
  return mla_full_rows(a, p) && a.cache_dtype != CacheDType::auto_ &&
         4 * copy_units_per_token(a, p) >= p.units_per_token;
}

// The token-warp layout (rope_kv_fused_token_warp_kernel, token_warp_lane.cuh): one warp a token,
// for MLA q rows of rotation only (no pass-through unit to copy: the query rotated in place) with
// one kv head whose rows' rotation units divide a warp (a lane's unit is then the same in every
// q row and in the k row), and whose k row's chunks (rotated, then pass-through) fit in a warp.
inline bool token_warp_layout(const RopeKvArgs& a, const WorkPlan& p) {
  const int k_chunks = (a.style == RopeStyle::neox ? 2 * p.k_rot : p.k_rot) + p.k_pass;
  return mla_layout(a) && p.q_pass == 0 && a.num_kv_heads == 1 && p.q_rot > 0 &&
         32 % p.q_rot == 0 && (p.q_rot & (p.q_rot - 1)) == 0 && p.k_rot == p.q_rot &&
         k_chunks <= 32 &&
         (a.style == RopeStyle::gptj || p.q_rot <= 16);  // neox: a row's 2 q_rot chunks a warp
}
// Where it pays: an fp8 cache where copies are at least a quarter of the units (mla:16). Gpt-j
// 7.5 % faster from 4096 tokens (round 28b, on an H100); neox with a chunk a lane and its partner
// by a shuffle, bounded to 5 CTAs a SM, 6.8 % faster (round 29, on an H200). Neox with a unit of
// two chunks a lane needed 143 registers (3 CTAs a SM) and ran 5-21 % slower; mla:128's 16 q rows
// a lane 2-9 % slower; 16-bit caches -1.6 to +1.4 % (round 28), and on an H100 -4 to +2 % in
// the chunk-a-lane layout (round 32, where the base was already at 90-93 % of copy bandwidth).
// Partial rotary (rot = 32: k pass-through chunks to the cache): 15.9 % faster (round 33, H100).
// A 16-bit cache with full rows: only where fused_launch.cpp's route says (rounds 37c and 38:
// below a wave, from two and a half CTAs a SM for gpt-j and two for neox, 4-26 % faster on an
// H100); partial rotary there has no kernel.
inline bool token_warp_pays(const RopeKvArgs& a, const WorkPlan& p) {
  return token_warp_layout(a, p) && (a.cache_dtype != CacheDType::auto_ || p.k_pass == 0) &&
         4 * copy_units_per_token(a, p) >= p.units_per_token;
}

// pad_always: pad wherever a segment is not whole warps, whatever the idle lanes cost (decode-size
// launches, where a grid of a few CTAs has lanes to spare).
RoleMajorSplit make_role_major_split(const RopeKvArgs& a, const WorkPlan& p,
                                     bool pad_always = false);

// Threads a token takes in a launch: its units, or in role-major order with warp-aligned
// segments, its padded count.
inline std::int64_t launched_units_per_token(const WorkPlan& p, const RoleMajorSplit& s,
                                             bool role_major) {
  return role_major && s.padded_units_per_token > 0 ? s.padded_units_per_token : p.units_per_token;
}

// True when a plan's k pass-through and v rows have even unit counts (two chunks per unit fit).
inline bool copies_pair_up(const WorkPlan& p) {
  return p.k_pass % 2 == 0 && p.v_units % 2 == 0;
}

// CTAs for the strided grid, whose threads step through the units by S = CTAs x threads: all
// `resident` CTAs that fit at once, or a few fewer where that count would make S share a factor
// with the units per token U beyond what `threads` shares with it. A thread meets U / gcd(S, U)
// distinct units of a token; at 132 SMs x 9 CTAs x 128 threads, S = 152064 is a multiple of
// U = 352 (32x8x128, rot = 64), so every thread would repeat one unit for the whole launch: the
// CTAs holding rotation units run long while those holding only copies finish early, and their
// SMs idle (results/NOTES.md, "stride resonance"). Never fewer than resident - resident / 16.
std::int64_t strided_grid_ctas(std::int64_t resident, std::int64_t units_per_token,
                               int threads_per_cta);

// Where a token's units are whole CTAs (U a multiple of the CTA's threads), strided_grid_ctas
// leaves gcd(S, U) at the CTA's thread count, so warp w of every CTA meets only the token's
// warp-slots w, w + 4, ...: U / 128 of them for the whole launch. With at most three, and rows
// that mix rotation and pass-through lanes in one warp (gpt-j partial rotary: a k row's rotated
// and pass-through chunks, two branches in series), the warps holding k rows run longer than
// those holding v rows, in every CTA alike, and the SMs idle while they finish (ncu, 16x2x256
// rot = 128 at 65k: SMs active 0.90 of the launch). Taking the CTA's four 32-unit quarters a warp
// further round each pass gives every warp every slot. On an H100 (rounds 44 and 44b,
// results/NOTES.md): 16x2x256 gpt-j rot = 128 2.7-6.2 % faster at 24k-65k, rot = 64 3.1-5.3 %
// at 16k-65k, and a shape not used to find the rule, 16x4x128 rot = 64, 4.4 % at 16k and 8.1 % at
// 65k; about one pass a thread (2048 tokens) +-0.6 %. Where a token is not whole CTAs (8x1x64
// rot = 32, 48 units), warps already move across slots, and turning them made it 3-12 % slower.
inline bool strided_warps_pinned(const WorkPlan& p, std::int64_t units_per_token,
                                 int threads_per_cta) {
  return p.k_rot > 0 && p.k_pass > 0 && units_per_token % threads_per_cta == 0 &&
         units_per_token / threads_per_cta <= 3;
}

// Whether most warps of a row-major launch hold units of two or three roles (q, k, v): a warp
// runs its roles' branches one after the other, each with its own round trips. Counted over 32
// tokens (units_per_token warps), the role boundaries (a token's start, its k and its v segment)
// that fall inside a warp; mostly: at least half a boundary a warp. 8x1x64's 44-unit tokens
// (32 q, 4 k, 8 v units) have 84 for 44 warps; 28x4x128's (224 + 32 + 64) none, mla:128's 84 for
// 580, 40x8x80's 64 for 320. Such launches take the units in phases (PhaseSplit), MLA excepted
// (plan_fused_launch): on an H100 8x1x64 at 65k was 17 % faster so (rounds 50 and 51), while
// launches already in whole warps a role lost up to 6 % (round 50) and mla:16 gpt-j rot = 32 at
// 65k 2.5 % (round 51).
inline bool row_major_warps_mix_roles(const WorkPlan& p) {
  const std::int64_t starts[3] = {0, p.q_end, p.k_end};
  std::int64_t inside = 0;
  for (const std::int64_t c : starts)
    for (std::int64_t t = 0; t < 32; ++t)
      inside += (t * p.units_per_token + c) % 32 != 0;
  return 2 * inside >= p.units_per_token;
}

// A launch's units in phases rather than token by token (the phased kernel): every token's q
// units, then every token's k units, then every token's v units, each token's units in their
// row-major order within a phase, so that a warp holds one role wherever the phase has 32 units
// left. Work indices below 2^31 only (make_phase_split's caller checks).
struct PhaseSplit {
  std::uint32_t q_total = 0, k_total = 0;  // the work index where the k and the v phase start
  std::uint32_t q_end = 0, k_end = 0;      // a token's first k and first v unit
  FastDivmod per_q, per_k, per_v;          // units a token in each phase
};

PhaseSplit make_phase_split(const RopeKvArgs& a, const WorkPlan& p);

// Token t and token-local unit u of work index g of a phased launch (g < the launch's units).
RKV_HOST_DEVICE inline void phase_unit(const PhaseSplit& ph, std::uint32_t g, std::uint32_t& t,
                                       std::uint32_t& u) {
  std::uint32_t r;
  if (g < ph.q_total) {
    ph.per_q.divmod(g, t, r);
    u = r;
  } else if (g < ph.k_total) {
    ph.per_k.divmod(g - ph.q_total, t, r);
    u = ph.q_end + r;
  } else {
    ph.per_v.divmod(g - ph.k_total, t, r);
    u = ph.k_end + r;
  }
}

// The row-warp layout of neox rows at decode sizes. The unit layout gives a thread two chunks half
// a row apart (x and y of its pairs): at N = 1 a 32x8x128 bf16 token is 448 threads, each loading
// two chunks of q or k and two of cos/sin. Here one lane holds one contiguous chunk, whole rows sit
// in one warp (rows_per_warp of them; the other lanes idle) and each lane takes its rotation
// partner, half a row away, from the lane `chunks / 2` apart by warp shuffle: twice the threads,
// half the loads each, 12-40 % faster at 1-8 tokens on the H200 (results/NOTES.md, session 13).
// A token is q_warps + k_warps of rows, then v_warps of v chunks (one per lane), all whole warps,
// so every warp of a launch is one role and its 32 lanes stay in step for the shuffle.
struct RowWarpPlan {
  int chunks = 0;         // chunks of a rotated row (R / VEC)
  int rows_per_warp = 0;  // 32 / chunks
  int q_warps = 0, k_warps = 0, v_warps = 0;
  std::int64_t lanes_per_token = 0;  // 32 x (q_warps + k_warps + v_warps)
  FastDivmod per_token;              // lanes_per_token as a divider
  FastDivmod per_row;                // chunks as a divider (a lane's row and chunk in its warp)
};

// Whether the row-warp layout can do a's work: neox, rows of rotation only (full rotary on q and
// k, no MLA), a cos/sin table in the q/k dtype, and a row of 2-32 chunks. The launchers take it
// at decode sizes only (rope_kv_fused.cu; the pair's rope kernel only for rows that also split
// sectors, neox_half_rows_split_sectors).
bool row_warp_layout(const RopeKvArgs& a, const WorkPlan& p);
RowWarpPlan make_row_warp_plan(const RopeKvArgs& a, const WorkPlan& p);

// Neox rows of rotation only whose half rows are not whole 32-byte sectors (80-wide heads with a
// 16-bit dtype): a unit's two load instructions cover 2.5 sectors of a row each and both touch
// the third. The fused kernel keeps them off the strided grid, where neighbouring CTAs drift
// apart over the launch and a shared sector is half-written by each: the flat grid was 3-13 %
// faster at 2k-65k tokens (results/NOTES.md, session 13).
inline bool neox_half_rows_split_sectors(const RopeKvArgs& a, const WorkPlan& p) {
  if (a.style != RopeStyle::neox || mla_layout(a) || p.q_pass != 0 || p.k_pass != 0) return false;
  return a.rot_dim == a.q_head_size && (a.rot_dim / 2 * dtype_bytes(a.dtype)) % 32 != 0;
}

// Rows that mix rotation and pass-through units where the rotation window ends inside a 32-byte
// sector (rot_dim x element bytes not a multiple of 32, e.g. 40x8x80 with rot = 40: 80 bytes), so
// a sector holds the end of a rotation unit and the start of a pass-through unit. Not MLA (its
// q and k rows are laid out apart). The flat grid was 6-15 % (gpt-j) and 2-15 % (neox) faster than
// the strided one at 2k-65k tokens on 40x8x80 rot = 40 (results/NOTES.md, session 17, round 1).
inline bool rotation_window_splits_sectors(const RopeKvArgs& a, const WorkPlan& p) {
  if (mla_layout(a) || (p.q_pass == 0 && p.k_pass == 0)) return false;
  return (std::int64_t{a.rot_dim} * dtype_bytes(a.dtype)) % 32 != 0;
}

// MLA with partial rotary (rot_dim below k_pe's 64) where copy units (k_pe's pass-through and the
// latent) are under a quarter of the token's units, the complement of wide_copy_units' threshold:
// the work is the sparse rotation windows of many q rows (mla:128: 12 % copies), not the
// latent's contiguous copies (mla:16: 50-67 %). On the flat grid mla:128 rot = 32 ran 9-15 %
// faster at 16k-65k tokens and mla:16 up to 17 % slower (results/NOTES.md, session 17, mlaflat);
// with this rule, mla:128 rot = 32 9-15 % faster at 16k-65k, 1.0-2.2 % slower at 2048 (session 18).
inline bool mla_rotation_windows_dominate(const RopeKvArgs& a, const WorkPlan& p) {
  if (!mla_layout(a) || a.rot_dim >= a.k_head_size) return false;
  return 4 * copy_units_per_token(a, p) < p.units_per_token;
}

// Neox rotation units of half a chunk (4 elements of x and of y: 4 pairs, gpt-j's count at 8 a
// chunk) in the role-major kernels with an fp8 cache, whose neox unit (8 pairs, each through the
// quotient) holds 48 registers against gpt-j's 32 (36 with half units: 12 CTAs per SM instead of
// 10). Only at 8 elements a chunk, where a half chunk is still an 8-byte access. The launcher
// asks it at compile time (which kernels exist) and gives those launches a plan made with
// rot_vec = vec / 2 (rope_kv_fused.cu).
constexpr bool neox_half_units(RopeStyle style, CacheDType cache, int vec) {
  return style == RopeStyle::neox && cache != CacheDType::auto_ && vec == 8;
}

// Where half units pay beyond decode sizes: a token's q rotation units (of the whole-chunk plan)
// fill at most two warps. Session 18's A/Bs (results/NOTES.md, rounds 2-3): 16x2x256 rot = 64 (64
// units), mla:16 rot = 32 (32) and 8x1x64 rot = 32 (16) 1-12 % faster at 2k-65k tokens, every
// decode-size case within -12..+1.2 %; where every launch took them, 28x4x128 (112) to mla:128
// (256) rot = 32-64 were 2-12 % slower, their q traffic in 8-byte accesses.
inline bool neox_half_units_pay(const RopeKvArgs& a, const WorkPlan& p) {
  return std::int64_t{a.num_q_heads} * p.q_rot <= 64;
}

// True when every pointer, stride, size and window offset of `a` allows `vec`-element accesses.
bool vector_width_fits(const RopeKvArgs& a, int vec);

}  // namespace rkv
