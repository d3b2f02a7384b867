#!/usr/bin/env bash
# Session 13, call 4: the decode, PDL and floor reports of the adopted build (HEAD b2f7409, the
# row-warp layout at decode sizes) for results/h200/README.md and issue 12's decode and PDL
# done-when lines. Before the call, here:
#   mkdir -p dist-s13d && cp build/rope-kv-bench dist-s13d/ && strip dist-s13d/rope-kv-bench
#   tar -cJf dist/s13d.tar.xz dist-s13d        # carry ["dist/s13d.tar.xz"]
set -u
tar -xJf dist/s13d.tar.xz
BIN=dist-s13d OUT=$OUT/c4 bash scripts/device_run.sh decode pdl floor
tar -C $OUT -czf $OUT/call4.tar.gz c4 && rm -rf $OUT/c4
