#!/usr/bin/env bash
# Session 36: round 36 in results/NOTES.md, the token warp below half a wave for partial rotary
# and gpt-j (routing only). Build first, here, from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s44 twq=$P/token-warp-quarter-wave.patch \
#     twall=$P/token-warp-any-wave.patch
#   (the base: dist/s42/rope-kv-bench copied to dist/s44/, HEAD's code)
#   tar -C dist -cf - s44/rope-kv-bench s44/exp-twq s44/exp-twall | xz -T2 -9 > dist/s44.tar.xz
# and call with carry ["dist/s44.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-below-half-wave-cases.txt (19 cases), each build judged on the cases whose
# launch it moved (AB_SUBSET=moved) at >= 3 % faster, no case more than 4 % slower; twall
# preferred, twq if twall fails; then the adopted build's matrix and sanitizer set ($OUT/c14.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twall twq" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-below-half-wave-cases.txt \
  bash scripts/ab_call.sh dist/s44.tar.xz s44 c14
echo "ab_call done ($SECONDS s)"
exit 0
