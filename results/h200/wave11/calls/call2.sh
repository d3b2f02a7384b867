#!/usr/bin/env bash
# Session 12, call 2: Nsight Compute profiles (full set, 3 launches each; predictions in
# results/NOTES.md, "Session 12: plan"):
#   a  40x8x80 gpt-j 65k, rot = 40 and 64: fused, rope, cache_write (base 936385d)
#   b  16x2x256 neox full rotary 65k, fused: cstab (12 CTAs per SM) and cstabcap9 (9)
#   c  16x2x256 fp8 neox rot = 64 65k: fused, rope, cache_write (base)
set -u
tar -xJf dist/s12.tar.xz
tar -xJf dist/ncu.tar.xz
R=$OUT/c2
BIN=dist-s12 OUT=$R/a \
  NCU_CASES='bf16|auto|40x8x80|gptj|nhd|N=65536|rot=40;bf16|auto|40x8x80|gptj|nhd|N=65536|rot=64' \
  NCU_VARIANTS='fused rope cache_write' bash scripts/device_run.sh ncu
for b in dist-ncu/exp-cstab dist-s12/exp-cstabcap9; do
  BIN=$b OUT=$R/b-$(basename $b) NCU_CASES='bf16|auto|16x2x256|neox|nhd|N=65536' \
    bash scripts/device_run.sh ncu
done
BIN=dist-s12 OUT=$R/c NCU_CASES='bf16|fp8_e4m3|16x2x256|neox|nhd|N=65536|rot=64' \
  NCU_VARIANTS='fused rope cache_write' bash scripts/device_run.sh ncu
tar -C $OUT -czf $OUT/call2.tar.gz c2 && rm -rf $R
