#!/usr/bin/env bash
# Builds what session 17's first call carries, from the committed HEAD (run from the repository
# root after scripts/install-deps.sh; ~12 min on two cores):
#   dist/s17.tar.xz  s17/rope-kv-bench (HEAD), s17/exp-gjsplit, s17/exp-splitflat and
#                    s17/exp-mlaflat (HEAD plus split-window-flat.patch with RKV_SPLIT_WINDOW_FLAT=1,
#                    =2, and RKV_MLA_PARTIAL_FLAT=1: the A/B, call2.sh), and
#                    s17/rw/exp-rolewarps (HEAD plus decode-role-warps.patch: session 16's build
#                    waiting for its confirmation, call1.sh; in a folder of its own, beside a link
#                    to the base, so that the A/B, which takes every s17/exp-*, leaves it out).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
export PATH=/usr/local/cuda/bin:$PATH
P=results/h200/experiments/patches
cmake -S . -B build -G Ninja -DRKV_WERROR=ON -DRKV_BUILD_TESTS=ON -DRKV_BUILD_PYTHON=OFF >/dev/null
cmake --build build -j"$(nproc)" --target rope-kv-bench >/dev/null
rm -rf dist/s17
mkdir -p dist/s17/rw
cp build/rope-kv-bench dist/s17/ && strip dist/s17/rope-kv-bench
scripts/build_kernel_experiments.sh --dist dist/s17 \
  gjsplit=$P/split-window-flat.patch,-DRKV_SPLIT_WINDOW_FLAT=1 \
  splitflat=$P/split-window-flat.patch,-DRKV_SPLIT_WINDOW_FLAT=2 \
  mlaflat=$P/split-window-flat.patch,-DRKV_MLA_PARTIAL_FLAT=1
# splitflat also moves neox's rot = 40 rows: judged on both styles' cases; mlaflat on MLA's.
cp $P/split-window-flat-both.subset.txt dist/s17/exp-splitflat/subset.txt
cp $P/mla-partial-flat.subset.txt dist/s17/exp-mlaflat/subset.txt
scripts/build_kernel_experiments.sh --dist dist/s17/rw rolewarps=$P/decode-role-warps.patch
ln -sf ../rope-kv-bench dist/s17/rw/rope-kv-bench  # rw's base (its confirmation) is s17's
tar -C dist -cJf dist/s17.tar.xz s17
ls -la dist/s17.tar.xz
