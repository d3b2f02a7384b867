#!/usr/bin/env bash
# Session 12, call 6: ncu, full set, base 936385d: 40x8x80 neox full rotary at 65k (fused and
# rope), 40x8x80 gpt-j full (fused), 32x8x128 neox full (fused); prediction in results/NOTES.md.
set -u
tar -xJf dist/s12d.tar.xz
R=$OUT/c6
BIN=dist-s12d OUT=$R/a NCU_CASES='bf16|auto|40x8x80|neox|nhd|N=65536' NCU_VARIANTS='fused rope' \
  bash scripts/device_run.sh ncu
BIN=dist-s12d OUT=$R/b \
  NCU_CASES='bf16|auto|40x8x80|gptj|nhd|N=65536;bf16|auto|32x8x128|neox|nhd|N=65536' \
  bash scripts/device_run.sh ncu
tar -C $OUT -czf $OUT/call6.tar.gz c6 && rm -rf $R
