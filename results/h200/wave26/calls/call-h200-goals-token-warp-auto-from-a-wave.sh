#!/usr/bin/env bash
# Prepared in session 36 for an H200 (another card: print it and run nothing, exit 0): first the
# goals of HEAD's kernels, then round 32 rebased after rounds 37c and 38 ("round 32 on an H200" in
# results/NOTES.md; twa3 = token-warp-auto-from-a-wave.patch, twan3 =
# token-warp-auto-neox-from-a-wave.patch: a 16-bit cache's token-warp band loses its upper bound,
# a wave, for both styles or for neox only; routing only). Build here from HEAD:
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s52 --base twa3=$P/token-warp-auto-from-a-wave.patch \
#     twan3=$P/token-warp-auto-neox-from-a-wave.patch
#   tar -C dist -cf - s52/rope-kv-bench s52/exp-twa3 s52/exp-twan3 | xz -T2 -9 > dist/s52.tar.xz
# Carry ["dist/s52.tar.xz"]. The rule is round 32's: two interleaved rounds over
# token-warp-auto-cases.txt (16 cases), each build on its subset (twa3 the 12 auto mla:16 cases at
# 4096-65536 tokens, twan3 the 6 neox ones) at >= 3 % faster, no case more than 4 % slower; twa3
# only if its 6 gpt-j cases are faster in geometric mean. Writes $OUT/goals.tar.gz and
# $OUT/c19.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s52.tar.xz GOALS_DIR=s52 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa3 twan3" \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-cases.txt \
  bash scripts/ab_call.sh dist/s52.tar.xz s52 c19
echo "ab_call done ($SECONDS s)"
exit 0
