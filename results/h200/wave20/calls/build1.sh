#!/usr/bin/env bash
# Session 22: call 1's carry, from the committed HEAD (scripts/build_kernel_experiments.sh):
# dist/s22a/rope-kv-bench (base), exp-waves, exp-roles, exp-both; packed as dist/s22a.tar.xz.
set -euo pipefail
P=results/h200/experiments/patches
rm -rf dist/s22a
scripts/build_kernel_experiments.sh --dist dist/s22a --base waves=$P/fp8-long-waves.patch \
  roles=$P/fp8-roles-gqa.patch both=$P/fp8-waves-roles.patch
tar -C dist -cf - s22a | xz -T2 -9 >dist/s22a.tar.xz
ls -l dist/s22a.tar.xz
