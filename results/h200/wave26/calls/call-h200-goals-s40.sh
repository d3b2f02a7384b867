#!/usr/bin/env bash
# Session 35: on an H200 only (another card: print it and run nothing), the goals of HEAD's kernels
# after round 33 (dist/s40's base, 1ebd2f7). Carry ["dist/s40.tar.xz"]; writes $OUT/goals.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s40.tar.xz GOALS_DIR=s40 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
exit 0
