#!/usr/bin/env bash
# Session 35: round 33 (call-token-warp-partial-rotary.sh's A/B and rule) on whatever card comes;
# then, only on an H200 and while the call has time, the goals of HEAD (dist/s38's base, round
# 31b's kernels). dist/s39.tar.xz holds s39/ (base, exp-twp) and s38/ (base, exp-twa, exp-twan):
#   tar -C dist -cf - s39/rope-kv-bench s39/exp-twp s38/rope-kv-bench s38/exp-twa s38/exp-twan |
#     xz -T2 -9 > dist/s39.tar.xz
# Carry ["dist/s39.tar.xz"]. Writes $OUT/c9.tar.gz and, on an H200, $OUT/goals.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twp" \
  AB_CASES=results/h200/wave26/calls/token-warp-partial-rotary-cases.txt \
  bash scripts/ab_call.sh dist/s39.tar.xz s39 c9
echo "ab_call done ($SECONDS s)"
if [[ $card == *H200* ]] && ((SECONDS < 330)); then
  GOALS_TARBALL=dist/s39.tar.xz GOALS_DIR=s38 bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
fi
exit 0
