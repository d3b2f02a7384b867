#!/usr/bin/env bash
# Session 36: the goals of 5fe7530's kernels (rounds 36, 37c and 38 landed), on an H200 only (another
# card: print it and run nothing). Build as call-gpu-tests-38-then-h200-goals.sh says (dist/s50)
# and call with carry ["dist/s50.tar.xz"]. Writes $OUT/goals.tar.gz (about 180 s).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
GOALS_TARBALL=dist/s50.tar.xz GOALS_DIR=s50 bash results/h200/wave24/calls/goals.sh
exit 0
