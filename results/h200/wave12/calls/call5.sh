#!/usr/bin/env bash
# Session 13, call 5: the adopted build (HEAD b2f7409) through the GPU unit tests (random shapes
# against the golden model), the edge set (misaligned pointers and narrow accesses, which now
# reach the row-warp layout at 33 tokens) with its sanitizer run, and the seed table. Before the
# call, here:
#   mkdir -p dist-s13e && cp build/rope-kv-bench build/rkv_tests dist-s13e/ && strip dist-s13e/*
#   tar -cJf dist/s13e.tar.xz dist-s13e        # carry ["dist/s13e.tar.xz"]
set -u
tar -xJf dist/s13e.tar.xz
BIN=dist-s13e OUT=$OUT/c5 bash scripts/device_run.sh tests edge sanitize-edge seed
tar -C $OUT -czf $OUT/call5.tar.gz c5 && rm -rf $OUT/c5
