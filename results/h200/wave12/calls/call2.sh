#!/usr/bin/env bash
# Session 13, call 2 (results/NOTES.md, "Session 13 round 2"): the A/B of rwall and rwsplit (the
# row-warp layout at decode sizes, with nsplitflat) against HEAD on the rowwarp, neoxdecode and
# decode configs; the `adopted` step validates the first build both rules adopt (matrix +
# sanitizer). Before the call, here:
#   mkdir -p dist-s13b && cp build/rope-kv-bench dist-s13b/ && strip dist-s13b/rope-kv-bench
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist-s13b \
#     rwall=$P/neox-row-warp-decode.patch,-DRKV_ROW_WARP_ALL=1 rwsplit=$P/neox-row-warp-decode.patch
#   tar -cJf dist/s13b.tar.xz dist-s13b        # carry ["dist/s13b.tar.xz"]
set -u
tar -xJf dist/s13b.tar.xz
BIN=dist-s13b OUT=$OUT/c2 AB_CONFIGS="rowwarp neoxdecode decode" \
  bash scripts/device_run.sh ab adopted
tar -C $OUT -czf $OUT/call2.tar.gz c2 && rm -rf $OUT/c2
