#!/usr/bin/env bash
# Session 47: rounds 61 and 62 in one A/B (results/NOTES.md, "Round 62"). Carry ["dist/w57.tar.xz"]:
# dist/s85's base (HEAD 76f8568), exp-wp (round 61) and exp-whp (round 62, built from 546ee34,
# whose kernel sources equal 76f8568's), from
#   scripts/build_kernel_experiments.sh --dist dist/s85 --base \
#     wp=results/h200/experiments/patches/wide-packed-cos-sin.patch
#   scripts/build_kernel_experiments.sh --dist dist/s85 \
#     whp=results/h200/experiments/patches/wide-half-packed.patch
#   tar -C dist -cf - s85/rope-kv-bench s85/exp-wp s85/exp-whp | xz -T2 -9 > dist/w57.tar.xz  # -9: its dictionary spans the three
# The cases: wave34's wide-packed-cases.txt with its packed_nhd MLA case (which the planner refuses:
# MLA has one cache layout) replaced by fp16 at 16k; each build's subset.txt is the first five.
# H200 only: on another card it says so and stops (exit 3). Two rounds, then the matrix and the
# sanitizer on the adopted build ($OUT/ab.tar.gz), whp preferred where both pass.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
# ANY_CARD=1 runs it on whatever card came (an H100 after failed H200 starts: NOTES says which).
[[ $card == *H200* || ${ANY_CARD:-0} == 1 ]] ||
  { echo "not an H200: round 61/62 are judged on the H200 only"; exit 3; }
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="exp-whp exp-wp" \
  AB_CASES=results/h200/wave35/calls/wide-half-cases.txt \
  bash scripts/ab_call.sh dist/w57.tar.xz s85 ab
