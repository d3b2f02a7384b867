#!/usr/bin/env bash
# The H200 half of call-2-goals-or-misses.sh (run by scripts/h200_first.sh there; carry and
# archive as that call's header says): the goals of HEAD's build ($OUT/goals.tar.gz, about
# 450 s), then, while the call has time, round 47's A/B on this card with its H100 rule
# ($OUT/c33.tar.gz; its adopted steps, the matrix and the sanitizer, bounded by the call's time).
set -u
GOALS_TARBALL=dist/s70.tar.xz GOALS_DIR=s70 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
((SECONDS < 470)) || { echo "no time left for round 47's A/B ($SECONDS s)"; exit 0; }
AB_ROUNDS=2 AB_MIN_GAIN=3 AB_CASES=results/h200/wave29/calls/long-launch-per-sm-cases.txt \
  timeout $((575 - SECONDS)) bash scripts/ab_call.sh dist/s68.tar.xz s68 c33
echo "round 47 on the H200 done ($SECONDS s)"
exit 0
