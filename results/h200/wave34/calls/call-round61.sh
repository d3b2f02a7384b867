#!/usr/bin/env bash
# Session 46: round 61's A/B (results/NOTES.md, "Round 61"). Carry ["dist/w56.tar.xz"]: dist/s85's
# base (HEAD 76f8568) and exp-wp, from
#   scripts/build_kernel_experiments.sh --dist dist/s85 --base \
#     wp=results/h200/experiments/patches/wide-packed-cos-sin.patch
#   tar -C dist -cf - s85/rope-kv-bench s85/exp-wp | xz -T2 -3 > dist/w56.tar.xz
# Two rounds, then the matrix and the sanitizer on an adopted build ($OUT/wp.tar.gz).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave34/calls/wide-packed-cases.txt \
  bash scripts/ab_call.sh dist/w56.tar.xz s85 wp
