#!/usr/bin/env bash
# Session 13, call 8 (for session 14's item 2, "N = 1 at the floor"): Nsight Compute, full set,
# on the fused kernel of b2f7409 at N = 1, 32x8x128 bf16 auto: neox (the row-warp kernel) and
# gpt-j (the unit kernel), with the per-instruction source page (SASS, stall samples) of each.
# Uses dist-s13e (call 5's binary); carry ["dist/s13e.tar.xz"]. Device time: 1800 - 149 s used in all.
set -u
tar -xJf dist/s13e.tar.xz
R=$OUT/ncu-n1; mkdir -p $R
for c in 'bf16|auto|32x8x128|neox|nhd|N=1' 'bf16|auto|32x8x128|gptj|nhd|N=1'; do
  timeout 100 bash scripts/ncu.sh "$c" fused 3 $R dist-s13e/rope-kv-bench >$R/log-$(echo "$c" | tr -c 'A-Za-z0-9\n' _).txt 2>&1
  echo "ncu $c: exit $?"
done
for rep in $R/*.ncu-rep; do
  timeout 60 ncu --import "$rep" --page source --print-source sass --csv >"${rep%.ncu-rep}.source.csv" 2>&1
  echo "source page $(basename "$rep"): exit $?"
done
tar -C $OUT -czf $OUT/ncu-n1.tar.gz ncu-n1 && rm -rf $R
