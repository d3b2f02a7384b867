#!/usr/bin/env bash
# Session 37, call 11 (carry ["dist/s52.tar.xz", "dist/s59.tar.xz"]). The card decides
# (scripts/h200_first.sh):
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: round 43b (results/NOTES.md), fgp against 6cb014f's binary (s59: built with
#   scripts/build_kernel_experiments.sh --dist dist/s59
#   fgp=results/h200/experiments/patches/flat-gptj-partial-from-32k.patch, the base copied from s54).
#   Rule fixed before the run: two interleaved rounds over flat-gptj-partial-from-32k-cases.txt (12 cold
#   cases), judged on the patch's subset (10) at >= 3 % faster, no case more than 4 % slower;
#   then the matrix of an adopted build ($OUT/c25.tar.gz).
set -u
bash scripts/h200_first.sh results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh &&
  exit 0
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave27/calls/flat-gptj-partial-from-32k-cases.txt \
  bash scripts/ab_call.sh dist/s59.tar.xz s59 c25
echo "ab_call done ($SECONDS s)"
exit 0
