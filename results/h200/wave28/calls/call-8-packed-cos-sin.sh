#!/usr/bin/env bash
# Session 38, call 8 (carry ["dist/s64.tar.xz"]): round 45 (results/NOTES.md), pcs against HEAD's
# kernels, on whatever card comes (470 s of device time were left: too few for the H200 goals,
# about 550 s). s64: scripts/build_kernel_experiments.sh --dist dist/s64
#   pcs=results/h200/experiments/patches/neox-packed-cos-sin.patch, the base copied from s63.
# Rule fixed before the run: two interleaved rounds over neox-packed-cos-sin-cases.txt (16 cold
# cases), judged on the patch's subset (14) at >= 3 % faster, no case more than 4 % slower. No
# validation matrix or sanitizer: an exploratory build (wrong for fp32 tables), and a first try
# to start a machine failed, leaving 290 s. ADOPTED_STEPS=" " (a blank) runs no step on the
# adopted build; the A/B's bench still validates each of its cases before timing it.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
ADOPTED_STEPS=" " AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave28/calls/neox-packed-cos-sin-cases.txt \
  bash scripts/ab_call.sh dist/s64.tar.xz s64 c28
echo "ab_call done ($SECONDS s)"
exit 0
