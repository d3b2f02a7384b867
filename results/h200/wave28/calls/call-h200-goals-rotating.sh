#!/usr/bin/env bash
# Prepared in session 38 for an H200 (run through scripts/h200_first.sh, which runs it only on
# one). Carry ["dist/s61.tar.xz", "dist/s63.tar.xz"]; on a fresh checkout rebuild them as
# call-3-goals-or-strided-rotating.sh (s61: round 44b's experiment over its pre-landing base) and
# call-5-gpu-tests-ncu-or-goals.sh (s63: HEAD's binaries, the landing) say.
# 1. The goals of HEAD's kernels (s63, with strided_rotating): $OUT/goals.tar.gz, about 450 s.
# 2. Round 44b's A/B on this card, the rule as on the H100 (results/NOTES.md): two interleaved
#    rounds over strided-rotating-cases.txt (13 cold cases), judged on its 9 moved launches at
#    >= 3 % faster, no case more than 4 % slower; then the matrix of the build ($OUT/c27.tar.gz).
#    A reject here means the route is taken back for the H200.
set -u
GOALS_TARBALL=dist/s63.tar.xz GOALS_DIR=s63 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave28/calls/strided-rotating-cases.txt \
  bash scripts/ab_call.sh dist/s61.tar.xz s61 c27
echo "ab_call done ($SECONDS s)"
exit 0
