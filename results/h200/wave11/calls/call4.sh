#!/usr/bin/env bash
# Session 12, call 4: why the flat grid helps 40x8x80 gpt-j rot = 40 (-7..-9.5 % in round 1) and
# hurts the other gpt-j shapes (+6..+19 %): ncu full set, fused, base 936385d and gjflat, on
# 40x8x80 gpt-j rot = 40 and 32x8x128 gpt-j rot = 64 at 65k (the SMs' spread of active cycles,
# DRAM throughput, stalls).
set -u
tar -xJf dist/s12c.tar.xz
R=$OUT/c4
for b in dist-s12c dist-s12c/exp-gjflat; do
  BIN=$b OUT=$R/$(basename $b) \
    NCU_CASES='bf16|auto|40x8x80|gptj|nhd|N=65536|rot=40;bf16|auto|32x8x128|gptj|nhd|N=65536|rot=64' \
    bash scripts/device_run.sh ncu
done
tar -C $OUT -czf $OUT/call4.tar.gz c4 && rm -rf $R
