// The fused kernels' occupancy on an H200 (bf16, the instantiations the routes below are about),
// for host tests of plan_fused_launch: fused_launch_test.cpp pins each shape's route on it, and the
// parameter-block tests (row_warp_params_test.cpp) check that a call whose fields do not fit
// leaves its route. The numbers are ptxas's registers turned into CTAs a
// SM (128-thread CTAs); a kernel change that moves them updates them here, and the routes it moves
// show in fused_launch_test.
#pragma once

#include "fused_launch.h"
#include "rope_kv.h"

namespace rkv {

// 132 SMs; row-warp kernel 16 CTAs a SM (32 registers), half-unit kernel 12 (36), role-major
// decode kernel 10 (48), the strided and wide kernels 9 (52), the token-warp kernel 6 (gpt-j 75
// registers, neox 79-80 under its bound of 6; round 37c).
inline FusedOccupancy h200() {
  FusedOccupancy o;
  o.sms = 132;
  o.token_warp = 6;
  o.row_warp = 16;
  o.half = 12;
  o.decode_roles = 10;
  o.strided[0] = o.strided[1] = 9;
  o.phased = 10;  // the phased kernel: 48 registers (neox, 8-element chunks)
  o.wide[0] = o.wide[1] = 9;
  return o;
}
// Gpt-j with a 16-bit cache has no strided or wide kernel in role-major order (the launcher's
// instantiations): its role-major launches can only be flat. Its role-major decode kernel holds
// 32 registers, 16 CTAs a SM (auto mla:16 gpt-j at 512 tokens, 896 CTAs, took the decode route
// on the device: within half a wave of 16 a SM, not of 10).
inline FusedOccupancy h200(RopeStyle style) {
  FusedOccupancy o = h200();
  if (style == RopeStyle::gptj) {
    o.strided[1] = o.wide[1] = 0;
    o.decode_roles = 16;
    o.strided_rotating = o.strided[0];  // the turning loop kept gpt-j's registers (round 44b)
    o.phased = 16;                      // gpt-j's phased kernel: 32 registers
  }
  return o;
}

// With an fp8 cache the strided kernels' own occupancy: gpt-j 16 CTAs a SM, neox 9 (10 in
// role-major order, which gpt-j never takes there), no wide kernel, and the flat two-chunk kernel
// bounded to the flat kernels' 16 / 10. Routes near a threshold (16x2x256 rot = 128 at 65k tokens:
// 99 units a thread of one wave, long from 100) depend on it.
// The token-warp kernel 6 CTAs a SM: bf16 chunks read by their words take gpt-j 77 registers and
// neox 79 (round 31b; 96 before, 5 CTAs).
inline FusedOccupancy h200_fp8(RopeStyle style) {
  FusedOccupancy o = h200();
  o.token_warp = 6;
  o.strided[0] = style == RopeStyle::gptj ? 16 : 9;
  o.strided[1] = style == RopeStyle::gptj ? 0 : 10;
  o.wide[0] = o.wide[1] = 0;
  o.flat_wide[0] = o.flat_wide[1] = style == RopeStyle::gptj ? 16 : 10;
  o.strided_rotating = style == RopeStyle::gptj ? 16 : 0;
  o.phased = 0;  // 16-bit caches only
  return o;
}

}  // namespace rkv
