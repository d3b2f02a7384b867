#!/usr/bin/env bash
# Session 39, call 3 (carry ["dist/s67.tar.xz"]: scripts/build_kernel_experiments.sh --dist
# dist/s67 w9=results/h200/experiments/patches/neox-packed-cos-sin-waves-at-9.patch, the base
# copied from s63, then `tar -C dist -cf - s67 | xz -T2 -9 > dist/s67.tar.xz`). Round 46
# (results/NOTES.md, session 39): exploratory, no matrix ($OUT/c30.tar.gz).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
ADOPTED_STEPS=" " AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/neox-packed-cos-sin-waves-at-9-cases.txt \
  bash scripts/ab_call.sh dist/s67.tar.xz s67 c30
echo "round 46 done ($SECONDS s)"
exit 0
