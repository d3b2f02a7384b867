#!/usr/bin/env bash
# Prepared in session 35 for an H200 (another card: print it and run nothing, exit 0): first the
# goals of HEAD's kernels, then round 32 rebased after rounds 33 and 34b ("round 32 on an H200"
# in results/NOTES.md; twa2 = token-warp-auto-full.patch, twan2 = token-warp-auto-neox-full.patch:
# 16-bit caches take the token warp for full rows only, from one wave, neox bounded to 6 CTAs a
# SM; the launches they move are round 32's, auto mla:16 from 3165 tokens). Build here from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s42 --base twa2=$P/token-warp-auto-full.patch \
#     twan2=$P/token-warp-auto-neox-full.patch
#   tar -C dist -cf - s42/rope-kv-bench s42/exp-twa2 s42/exp-twan2 | xz -T2 -9 > dist/s42.tar.xz
# Carry ["dist/s42.tar.xz"]. The rule is round 32's: two interleaved rounds over
# token-warp-auto-cases.txt (16 cases), each build on its subset (twa2 the 12 auto mla:16 cases,
# twan2 the 6 neox ones) at >= 3 % faster, no case more than 4 % slower; twa2 only if its 6 gpt-j
# cases are faster in geometric mean. Writes $OUT/goals.tar.gz and $OUT/c12.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s42.tar.xz GOALS_DIR=s42 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa2 twan2" \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-cases.txt \
  bash scripts/ab_call.sh dist/s42.tar.xz s42 c12
echo "ab_call done ($SECONDS s)"
exit 0
