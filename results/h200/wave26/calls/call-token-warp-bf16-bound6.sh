#!/usr/bin/env bash
# Session 34: round 30 in results/NOTES.md, bf16's token-warp kernels bounded to 6 CTAs a SM.
# Build first, here, from HEAD (e18d7e2's kernels):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s35 --base tw6=$P/token-warp-bf16-bound6.patch
#   tar -C dist -cf - s35/rope-kv-bench s35/exp-tw6 | xz -T2 -9 > dist/s35.tar.xz
# and call with carry ["dist/s35.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-bf16-bound6-cases.txt (13 cases), judged on the patch's subset file (10 bf16
# cases) at >= 3 % faster, no case more than 4 % slower; then the adopted build's matrix (4010
# cases) and sanitizer set ($OUT/c4.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="tw6" \
  AB_CASES=results/h200/wave26/calls/token-warp-bf16-bound6-cases.txt \
  bash scripts/ab_call.sh dist/s35.tar.xz s35 c4
echo "ab_call done ($SECONDS s)"
exit 0
