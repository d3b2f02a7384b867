#!/usr/bin/env bash
# Session 20 round 1's builds (dist/s20a.tar.xz): the base (HEAD) and the strided grid in 2, 4 and
# 16 waves of resident CTAs (RKV_STRIDED_WAVES, host only: the kernels' SASS is the base's).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s20a
scripts/build_kernel_experiments.sh --dist dist/s20a --base w2=-DRKV_STRIDED_WAVES=2 \
  w4=-DRKV_STRIDED_WAVES=4 w16=-DRKV_STRIDED_WAVES=16
tar -C dist -cf - s20a | xz -T2 -3 >dist/s20a.tar.xz
ls -la dist/s20a.tar.xz
