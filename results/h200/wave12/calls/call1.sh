#!/usr/bin/env bash
# Session 13, call 1 (prepared in session 12; results/NOTES.md, "Prepared for session 13"): the
# A/B of nsplitflat and rowwarp against HEAD on the stride, rotary, rowwarp and decode configs,
# decided by device_run.sh's rule; its `adopted` step validates the first experiment both rules
# adopt (nsplitflat before rowwarp by name, the smaller change) at once: matrix + sanitizer.
# Before the call, here:
#   cmake --build build && mkdir -p dist-s13 && cp build/rope-kv-bench dist-s13/ && strip dist-s13/rope-kv-bench
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist-s13 nsplitflat=$P/neox-split-flat.patch \
#     rowwarp=$P/neox-row-warp.patch
#   tar -cJf dist/s13.tar.xz dist-s13        # carry ["dist/s13.tar.xz"]
set -u
tar -xJf dist/s13.tar.xz
BIN=dist-s13 OUT=$OUT/c1 AB_CONFIGS="stride rotary rowwarp decode" \
  bash scripts/device_run.sh ab adopted
tar -C $OUT -czf $OUT/call1.tar.gz c1 && rm -rf $OUT/c1
