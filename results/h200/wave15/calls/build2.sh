#!/usr/bin/env bash
# Builds what session 17's calls 3 and 4 carry: dist/s17h.tar.xz, s17h/rope-kv-bench and
# s17h/rkv_tests from the committed HEAD (rolewarps and splitflat landed in kernels/), stripped.
# Run from the repository root after build.sh or any configured build (~7 min on two cores).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
export PATH=/usr/local/cuda/bin:$PATH
cmake --build build -j"$(nproc)" --target rope-kv-bench rkv_tests >/dev/null
rm -rf dist/s17h && mkdir -p dist/s17h
cp build/rope-kv-bench build/rkv_tests dist/s17h/ && strip dist/s17h/*
tar -C dist -cJf dist/s17h.tar.xz s17h
ls -la dist/s17h.tar.xz
