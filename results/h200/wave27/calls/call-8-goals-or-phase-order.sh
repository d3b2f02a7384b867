#!/usr/bin/env bash
# Session 37, call 8 (carry ["dist/s52.tar.xz", "dist/s57.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: round 42 (results/NOTES.md), phase against 6cb014f's binary (s57: built with
#   scripts/build_kernel_experiments.sh --dist dist/s57
#   phase=results/h200/experiments/patches/strided-phase-order.patch, the base copied from s54).
#   Rule fixed before the run: two interleaved rounds over strided-phase-order-cases.txt (16 cold
#   cases), judged on the patch's subset (13) at >= 3 % faster, no case more than 4 % slower;
#   then the matrix of an adopted build ($OUT/c23.tar.gz).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave27/calls/strided-phase-order-cases.txt \
  bash scripts/ab_call.sh dist/s57.tar.xz s57 c23
echo "ab_call done ($SECONDS s)"
exit 0
