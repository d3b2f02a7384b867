#!/usr/bin/env bash
# Session 36: round 35 in results/NOTES.md, the whole token in one step (four q row groups a step
# in the full-row token-warp kernels). Build first, here, from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s43 tq4=$P/token-warp-q4.patch \
#     tq4g6=$P/token-warp-q4-gptj6.patch
#   (the base: dist/s42/rope-kv-bench copied to dist/s43/, HEAD's code)
#   tar -C dist -cf - s43/rope-kv-bench s43/exp-tq4 s43/exp-tq4g6 | xz -T2 -9 > dist/s43.tar.xz
# and call with carry ["dist/s43.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-q4-cases.txt (16 cases), each build judged on its subset.txt at >= 3 % faster,
# no case more than 4 % slower; tq4 preferred; then the adopted build's matrix and sanitizer set
# ($OUT/c13.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="tq4 tq4g6" \
  AB_CASES=results/h200/wave26/calls/token-warp-q4-cases.txt \
  bash scripts/ab_call.sh dist/s43.tar.xz s43 c13
echo "ab_call done ($SECONDS s)"
exit 0
