#!/usr/bin/env bash
# Session 35: round 34b in results/NOTES.md, the token warp from half a wave for partial rotary and
# gpt-j only. Build first, here, from HEAD (round 33 landed):
#   scripts/build_kernel_experiments.sh --dist dist/s41 \
#     twn34=results/h200/experiments/patches/token-warp-half-wave-narrow.patch 
#   (the base: dist/s40/rope-kv-bench copied to dist/s41/, HEAD's code)
#   tar -C dist -cf - s41/rope-kv-bench s41/exp-twn34 | xz -T2 -9 > dist/s41.tar.xz
# and call with carry ["dist/s41.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-half-wave-narrow-cases.txt (15 cases), judged on the cases whose launch moved
# (AB_SUBSET=moved: mla:16 fp8 rot = 32 and gpt-j at 1584-3164 tokens) at >= 3 %
# faster, no case more than 4 % slower; then the adopted build's matrix and sanitizer set ($OUT/c11.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twn34" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-half-wave-narrow-cases.txt \
  bash scripts/ab_call.sh dist/s41.tar.xz s41 c11
echo "ab_call done ($SECONDS s)"
# Then, only on an H200 while the call has time, the goals of HEAD's kernels (with exp-twn34's route
# if it was adopted): $OUT/goals.tar.gz.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]] && ((SECONDS < 330)); then
  adopted=$(tar -xzOf "$OUT/c11.tar.gz" c11/adopted.txt 2>/dev/null)
  [[ $adopted == exp-* ]] || adopted=
  GOALS_TARBALL=dist/s41.tar.xz GOALS_DIR=s41 ADOPTED=$adopted \
    bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
fi
exit 0
