#!/usr/bin/env bash
# Session 32: round 25 in results/NOTES.md, MLA with an fp8 cache and full rotary of few copies
# (mla:128) in role-major whole warps where the launch stays on the flat grid. Build first, here,
# from HEAD (round 24 landed, before round 22b; the 12 moved cases are prefill routes, which
# round 22b does not touch):
#   scripts/build_kernel_experiments.sh --dist dist/s32 \
#     mla128fr=results/h200/experiments/patches/mla128-fp8-flat-role-warps.patch
#   tar -C dist -cf - s32/rope-kv-bench s32/exp-mla128fr | xz -T2 -9 > dist/s32b.tar.xz
# and call with carry ["dist/s32b.tar.xz"]. The rule, fixed before the run: two interleaved
# rounds over mla128-fp8-flat-cases.txt (the 12 moved cases of the patch's subset file and 4
# controls), judged on the 12 at >= 3 % faster, no case more than 2 % slower; then the adopted
# build's matrix and sanitizer set ($OUT/c9.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave25/calls/mla128-fp8-flat-cases.txt \
  bash scripts/ab_call.sh dist/s32b.tar.xz s32 c9
echo "ab_call done ($SECONDS s)"
exit 0
