#!/usr/bin/env bash
# Session 13, call 1 (prepared in session 12; results/NOTES.md, "Prepared for session 13"): the
# A/B of nsplitflat and rowwarp against HEAD on the stride, rotary, rowwarp and decode configs,
# decided by device_run.sh's rule; the first experiment both rules adopt (nsplitflat before
# rowwarp, the smaller change) is validated at once (full matrix + compute-sanitizer).
# Before the call, here:
#   cmake --build build && mkdir -p dist-s13 && cp build/rope-kv-bench dist-s13/ && strip dist-s13/rope-kv-bench
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist-s13 nsplitflat=$P/neox-split-flat.patch \
#     rowwarp=$P/neox-row-warp.patch
#   tar -cJf dist/s13.tar.xz dist-s13        # carry ["dist/s13.tar.xz"]
set -u
tar -xJf dist/s13.tar.xz
D=dist-s13 R=$OUT/c1
mkdir -p $R
BIN=$D OUT=$R/ab AB_CONFIGS="stride rotary rowwarp decode" bash scripts/device_run.sh ab
pick=""
while read -r name _ fused _ pair; do
  [[ -z $pick && $fused == 0 && $pair == 0 ]] && pick=$name
done <$R/ab/ab-decisions.txt
echo "${pick:-none}" | tee $R/adopted.txt
[[ -z $pick ]] || BIN=$D/$pick OUT=$R/val bash scripts/device_run.sh matrix sanitize
tar -C $OUT -czf $OUT/call1.tar.gz c1 && rm -rf $R
