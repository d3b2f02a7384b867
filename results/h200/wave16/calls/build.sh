#!/usr/bin/env bash
# Builds what session 18's first call carries, from the committed HEAD (run from the repository
# root after scripts/install-deps.sh; ~6 min on two cores):
#   dist/s18.tar.xz  s18/rope-kv-bench (HEAD) and s18/exp-mlasparse (HEAD plus
#                    mla-sparse-flat.patch with RKV_MLA_SPARSE_FLAT=1: round 1, results/NOTES.md,
#                    "Session 18 round 1"), judged on mla-sparse-flat.subset.txt.
# Before the call: cuobjdump -sass of both binaries identical (the patch is host code only).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s18
scripts/build_kernel_experiments.sh --dist dist/s18 --base \
  mlasparse=results/h200/experiments/patches/mla-sparse-flat.patch,-DRKV_MLA_SPARSE_FLAT=1
tar -C dist -cJf dist/s18.tar.xz s18
ls -la dist/s18.tar.xz
