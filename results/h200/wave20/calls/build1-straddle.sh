#!/usr/bin/env bash
# Session 22: round 10's binary beside call 1's (build1.sh), from the committed HEAD, then the
# carry packed again with it: dist/s22a/exp-straddle, dist/s22a.tar.xz.
set -euo pipefail
scripts/build_kernel_experiments.sh --dist dist/s22a \
  straddle=results/h200/experiments/patches/straddle-waves.patch
tar -C dist -cf - s22a | xz -T2 -9 >dist/s22a.tar.xz
ls -l dist/s22a.tar.xz
