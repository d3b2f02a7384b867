#!/usr/bin/env bash
# Session 35: on an H200 only (another card: print it and run nothing, exit 0). First the goals of
# HEAD 3b58b2e (round 31b landed; dist/s38's base), then round 32 again on this card (results/
# NOTES.md, "round 32 on an H200"). Carry ["dist/s38.tar.xz"]; call-token-warp-auto.sh says how
# it is built. Writes $OUT/goals.tar.gz and $OUT/c8.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s38.tar.xz GOALS_DIR=s38 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa twan" \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-cases.txt \
  bash scripts/ab_call.sh dist/s38.tar.xz s38 c8
echo "ab_call done ($SECONDS s)"
exit 0
