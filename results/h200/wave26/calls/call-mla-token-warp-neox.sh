#!/usr/bin/env bash
# Session 34: round 29 in results/NOTES.md, the token-warp kernel for neox fp8 mla:16 (a chunk a
# lane, its rotation partner by a shuffle). Build first, here, from HEAD (03982df's kernels):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s34 --base \
#     twn=$P/mla-token-warp-neox-fp8.patch twn5=$P/mla-token-warp-neox-fp8-bound5.patch
#   tar -C dist -cf - s34/rope-kv-bench s34/exp-twn s34/exp-twn5 | xz -T2 -9 > dist/s34.tar.xz
# and call with carry ["dist/s34.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over mla-token-warp-neox-cases.txt (16 cases), judged on the 11 moved cases of the patches'
# subset files at >= 3 % faster, no case more than 4 % slower; twn5 preferred where both pass;
# then the adopted build's matrix (4010 cases) and sanitizer set ($OUT/c3.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twn5 twn" \
  AB_CASES=results/h200/wave26/calls/mla-token-warp-neox-cases.txt \
  bash scripts/ab_call.sh dist/s34.tar.xz s34 c3
echo "ab_call done ($SECONDS s)"
exit 0
