#!/usr/bin/env bash
# Session 37, call 6 (carry ["dist/s52.tar.xz", "dist/s56.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: round 41 (results/NOTES.md), dyn against 6cb014f's binary (s56: built with
#   scripts/build_kernel_experiments.sh --dist dist/s56
#   dyn=results/h200/experiments/patches/strided-dynamic-tiles.patch, the base copied from s54).
#   Rule fixed before the run: two interleaved rounds over strided-dynamic-tiles-cases.txt (17
#   cold cases), judged on the patch's subset (15) at >= 3 % faster, no case more than 4 %
#   slower; then the matrix of an adopted build, which validates the counters over 4010 cases
#   ($OUT/c22.tar.gz).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave27/calls/strided-dynamic-tiles-cases.txt \
  bash scripts/ab_call.sh dist/s56.tar.xz s56 c22
echo "ab_call done ($SECONDS s)"
exit 0
