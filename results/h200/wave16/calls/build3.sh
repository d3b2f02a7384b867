#!/usr/bin/env bash
# Builds what session 18's third call carries, from the committed HEAD (~6 min on two cores):
#   dist/s18c.tar.xz  s18c/rope-kv-bench (HEAD) and s18c/exp-halfnarrow (HEAD plus
#                     neox-half-units-narrow.patch with RKV_NEOX_HALF_UNITS=1: round 3,
#                     results/NOTES.md), judged on neox-half-units-narrow.subset.txt.
# Before the call: cuobjdump -sass of both binaries identical but for the four new
# rope_kv_fused_half_kernel instantiations.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s18c
scripts/build_kernel_experiments.sh --dist dist/s18c --base \
  halfnarrow=results/h200/experiments/patches/neox-half-units-narrow.patch,-DRKV_NEOX_HALF_UNITS=1
tar -C dist -cf - s18c | xz -T2 -3 >dist/s18c.tar.xz
ls -la dist/s18c.tar.xz
