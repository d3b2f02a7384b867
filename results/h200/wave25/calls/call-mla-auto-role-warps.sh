#!/usr/bin/env bash
# Session 32: round 26 in results/NOTES.md, MLA with a 16-bit cache and full rotary in role-major
# whole warps (one-chunk `mlaauto`, two-chunk copies `mlaautow`). Build first, here, from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s32c --base \
#     mlaauto=$P/mla-auto-role-warps.patch mlaautow=$P/mla-auto-role-warps-wide.patch
#   tar -C dist -cf - s32c | xz -T2 -9 > dist/s32c.tar.xz
# and call with carry ["dist/s32c.tar.xz"]. The rule, fixed before the run: two interleaved
# rounds over mla-auto-cases.txt (the 12 judged cases of the patches' subset file and 3
# controls), >= 3 % faster, no case more than 2 % slower; where both are adopted, `mlaautow`
# lands (AB_PREFER); then the adopted build's matrix and sanitizer set ($OUT/c10.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER=exp-mlaautow \
  AB_CASES=results/h200/wave25/calls/mla-auto-cases.txt \
  bash scripts/ab_call.sh dist/s32c.tar.xz s32c c10
echo "ab_call done ($SECONDS s)"
exit 0
