#!/usr/bin/env bash
# Session 31: round 24 in results/NOTES.md, MLA with fp8 caches and full rotary in role-major
# order (segments padded to whole warps). Build first, here, from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s31 mlarw=$P/mla-fp8-role-warps.patch \
#     mlarwc=$P/mla-fp8-role-warps-copy-heavy.patch
#   (dist/s31/rope-kv-bench: HEAD's kernels; session 31 copied dist/s30's, the same kernels)
#   tar -C dist -cf - s31/rope-kv-bench s31/exp-mlarw s31/exp-mlarwc | xz -T2 -9 > dist/s31.tar.xz
# and call with carry ["dist/s31.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over the 16 cases of mla-fp8-role-warps.subset.txt (in $P), judged on all of them at >= 3 % faster, no
# case more than 2 % slower; then the adopted build's matrix and sanitizer set ($OUT/c7.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/experiments/patches/mla-fp8-role-warps.subset.txt \
  bash scripts/ab_call.sh dist/s31.tar.xz s31 c7
echo "ab_call done ($SECONDS s)"
exit 0
