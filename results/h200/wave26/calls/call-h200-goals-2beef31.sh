#!/usr/bin/env bash
# Session 36: the goals of 2beef31's kernels (rounds 36 and 37c landed), on an H200 only (another
# card: print it and run nothing). Build as call-gpu-tests-37c-then-h200-goals.sh says (dist/s48)
# and call with carry ["dist/s48.tar.xz"]. Writes $OUT/goals.tar.gz (about 180 s).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s48.tar.xz GOALS_DIR=s48 bash results/h200/wave24/calls/goals.sh
exit 0
