#!/usr/bin/env bash
# Session 38, call 3 (carry ["dist/s52.tar.xz", "dist/s61.tar.xz"]). The card decides
# (scripts/h200_first.sh):
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: round 44b (results/NOTES.md), rot against HEAD's kernels (s61: built with
#   scripts/build_kernel_experiments.sh --dist dist/s61
#   rot=results/h200/experiments/patches/strided-rotating-pinned.patch, the base copied from s59).
#   Rule fixed before the run: two interleaved rounds over strided-rotating-cases.txt (13 cold
#   cases), judged on the patch's subset (9) at >= 3 % faster, no case more than 4 % slower; then
#   the full validation matrix of an adopted build ($OUT/c26.tar.gz).
set -u
bash scripts/h200_first.sh results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh &&
  exit 0
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave28/calls/strided-rotating-cases.txt \
  bash scripts/ab_call.sh dist/s61.tar.xz s61 c26
echo "ab_call done ($SECONDS s)"
exit 0
