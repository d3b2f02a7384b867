#!/usr/bin/env bash
# Session 43, call 15, carry ["dist/w44.tar.xz"]: s78/ (round 54:
# `scripts/build_kernel_experiments.sh --dist dist/s78 --base
# pipe=results/h200/experiments/patches/strided-pipelined.patch
# pipe8=results/h200/experiments/patches/strided-pipelined-8.patch`):
#   tar -C dist -cf - s78 | xz -T2 -9 > dist/w44.tar.xz
# Asked of nvidia-h100-x1: round 54's A/B on an H100 (results/NOTES.md, session 43: its rule).
set -u
ln -sf w44.tar.xz dist/s78.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave31/calls/strided-pipelined-cases.txt \
  timeout 540 bash scripts/ab_call.sh dist/s78.tar.xz s78 c78
echo "round 54 done ($SECONDS s)"
exit 0
