#!/usr/bin/env bash
# Session 37, call 2 (carry ["dist/s52.tar.xz", "dist/s55.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged; s52 holds
#   6cb014f's base binary and twa3/twan3 built on it);
# - another card: round 40 (results/NOTES.md), rmw64 against 6cb014f's binary (s55, built with
#   scripts/build_kernel_experiments.sh --dist dist/s55
#   rmw64=results/h200/experiments/patches/role-major-waves-from-64.patch, the base copied from
#   s54). Rule fixed before the run: two interleaved rounds over
#   role-major-waves-from-64-cases.txt (20 cold cases), judged on the patch's subset (16 cases)
#   at >= 3 % faster, no case more than 4 % slower; then the adopted build's matrix and
#   sanitizer set ($OUT/c21.tar.gz).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave27/calls/role-major-waves-from-64-cases.txt \
  bash scripts/ab_call.sh dist/s55.tar.xz s55 c21
echo "ab_call done ($SECONDS s)"
exit 0
