#!/usr/bin/env bash
# Session 20 round 2's builds (dist/s20b.tar.xz): the base (HEAD, one wave) and long-waves (16
# waves where a thread of one wave would run >= 100 units). xz -9 in one thread: the binaries
# share most of their bytes and the working tree plus the carry must stay under 64 MiB.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s20b
scripts/build_kernel_experiments.sh --dist dist/s20b --base \
  longwaves=results/h200/experiments/patches/long-waves.patch
tar -C dist -cf - s20b | xz -T1 -9 >dist/s20b.tar.xz
ls -la dist/s20b.tar.xz
