#!/usr/bin/env bash
# Builds what session 18's first call carries, from the committed HEAD (run from the repository
# root after scripts/install-deps.sh; ~10 min on two cores):
#   dist/s18.tar.xz  s18/rope-kv-bench (HEAD) and s18/exp-mlasparse (HEAD plus
#                    mla-sparse-flat.patch with RKV_MLA_SPARSE_FLAT=1: round 1, results/NOTES.md,
#                    "Session 18 round 1"), judged on mla-sparse-flat.subset.txt.
# Before the call: cuobjdump -sass of both binaries identical (the patch is host code only).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
export PATH=/usr/local/cuda/bin:$PATH
P=results/h200/experiments/patches
cmake -S . -B build -G Ninja -DRKV_WERROR=ON -DRKV_BUILD_TESTS=ON -DRKV_BUILD_PYTHON=OFF >/dev/null
cmake --build build -j"$(nproc)" --target rope-kv-bench >/dev/null
rm -rf dist/s18
mkdir -p dist/s18
cp build/rope-kv-bench dist/s18/ && strip dist/s18/rope-kv-bench
scripts/build_kernel_experiments.sh --dist dist/s18 \
  mlasparse=$P/mla-sparse-flat.patch,-DRKV_MLA_SPARSE_FLAT=1
tar -C dist -cJf dist/s18.tar.xz s18
ls -la dist/s18.tar.xz
