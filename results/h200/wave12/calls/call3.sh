#!/usr/bin/env bash
# Session 13, call 3 (results/NOTES.md, "Session 13 round 3"): the A/B of rwhalf (the row-warp
# layout where the launch fills at most half a wave; the pair's rope in it only for 80-wide rows)
# against HEAD on the rowwarp, neoxdecode and decode configs; the adopted build is validated
# (matrix + sanitizer), then the 90 never-slower cases its routes touch are re-run with both
# builds (results/h200/wave12/never-slower-rowwarp.ids.txt: neox full rotary, non-MLA, at 1, 8,
# 128 tokens, and 40x8x80 neox auto at 2048-65k). Before the call, here:
#   mkdir -p dist-s13c && cp build/rope-kv-bench dist-s13c/ && strip dist-s13c/rope-kv-bench
#   scripts/build_kernel_experiments.sh --dist dist-s13c \
#     rwhalf=results/h200/experiments/patches/neox-row-warp-decode-half.patch
#   tar -cJf dist/s13c.tar.xz dist-s13c        # carry ["dist/s13c.tar.xz"]
set -u
tar -xJf dist/s13c.tar.xz
R=$OUT/c3
BIN=dist-s13c OUT=$R AB_CONFIGS="rowwarp neoxdecode decode" bash scripts/device_run.sh ab adopted
if grep -qx exp-rwhalf $R/adopted.txt; then
  ids=()
  while read -r id; do ids+=(--case "$id"); done <results/h200/wave12/never-slower-rowwarp.ids.txt
  for b in dist-s13c/exp-rwhalf dist-s13c; do
    n=$(basename $b)
    timeout -s INT 200 $b/rope-kv-bench bench --config configs/never-slower.json "${ids[@]}" \
      --json $R/ns-$n.json >$R/ns-$n.txt 2>&1
    echo "never-slower subset $n: exit $?"
  done
fi
tar -C $OUT -czf $OUT/call3.tar.gz c3 && rm -rf $R
