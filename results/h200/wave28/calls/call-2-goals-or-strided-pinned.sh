#!/usr/bin/env bash
# Session 38, call 2 (carry ["dist/s52.tar.xz", "dist/s60.tar.xz"]). The card decides
# (scripts/h200_first.sh):
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: round 44 (results/NOTES.md), flat3 and skew against HEAD's kernels (s60: built
#   with scripts/build_kernel_experiments.sh --dist dist/s60
#   flat3=results/h200/experiments/patches/strided-pinned-flat.patch
#   skew=results/h200/experiments/patches/strided-warp-skew.patch, the base copied from s59).
#   Rule fixed before the run: two interleaved rounds over strided-pinned-cases.txt (20 cold
#   cases), each build on its subset at >= 3 % faster, no case more than 4 % slower; flat3
#   preferred; then the matrix of an adopted build ($OUT/c25.tar.gz).
set -u
bash scripts/h200_first.sh results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh &&
  exit 0
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="flat3 skew" \
  AB_CASES=results/h200/wave28/calls/strided-pinned-cases.txt \
  bash scripts/ab_call.sh dist/s60.tar.xz s60 c25
echo "ab_call done ($SECONDS s)"
exit 0
