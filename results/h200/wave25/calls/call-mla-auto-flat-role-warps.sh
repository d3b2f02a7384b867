#!/usr/bin/env bash
# Session 32: round 26b in results/NOTES.md, MLA with a 16-bit cache and full rotary in role-major
# whole warps on the flat grid only (round 25's rule for every cache dtype). Build first, here,
# from HEAD (c17f9a2: the launcher's gpt-j 16-bit role-major fix):
#   scripts/build_kernel_experiments.sh --dist dist/s32d --base \
#     mlaautof=results/h200/experiments/patches/mla-auto-flat-role-warps.patch
#   tar -C dist -cf - s32d | xz -T2 -9 > dist/s32d.tar.xz
# and call with carry ["dist/s32d.tar.xz"]. The rule, fixed before the run: two interleaved
# rounds over mla-auto-flat-cases.txt (the 8 judged cases of the patch's subset file and 3
# controls), >= 3 % faster, no case more than 2 % slower; then the adopted build's matrix and
# sanitizer set ($OUT/c11.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave25/calls/mla-auto-flat-cases.txt \
  bash scripts/ab_call.sh dist/s32d.tar.xz s32d c11
echo "ab_call done ($SECONDS s)"
exit 0
