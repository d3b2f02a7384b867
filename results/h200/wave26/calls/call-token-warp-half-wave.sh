#!/usr/bin/env bash
# Session 35: round 34 in results/NOTES.md, the token warp from half a wave of its CTAs (was one
# wave). Build first, here, from HEAD (round 33 landed):
#   scripts/build_kernel_experiments.sh --dist dist/s40 --base \
#     twh=results/h200/experiments/patches/token-warp-half-wave.patch
#   tar -C dist -cf - s40/rope-kv-bench s40/exp-twh | xz -T2 -9 > dist/s40.tar.xz
# and call with carry ["dist/s40.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-half-wave-cases.txt (19 cases), judged on the cases whose launch moved
# (AB_SUBSET=moved: bf16/fp16 mla:16 fp8 at 1584-3164 tokens) at >= 3 % faster, no case more than
# 4 % slower; then the adopted build's matrix and sanitizer set ($OUT/c10.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twh" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-half-wave-cases.txt \
  bash scripts/ab_call.sh dist/s40.tar.xz s40 c10
echo "ab_call done ($SECONDS s)"
# Then, only on an H200 while the call has time, the goals of HEAD's kernels (with exp-twh's route
# if it was adopted): $OUT/goals.tar.gz.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]] && ((SECONDS < 330)); then
  adopted=$(tar -xzOf "$OUT/c10.tar.gz" c10/adopted.txt 2>/dev/null)
  [[ $adopted == exp-* ]] || adopted=
  GOALS_TARBALL=dist/s40.tar.xz GOALS_DIR=s40 ADOPTED=$adopted \
    bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
fi
exit 0
