#!/usr/bin/env bash
# Session 16: where N = 1 spends its time, per SASS instruction. Nsight Compute on the fused kernel
# at N = 1 with the most warp-state samples a launch gives (NCU_SAMPLING_INTERVAL=0), the caches
# left as the previous launch left them (as in a graph replay), five sections only, three
# launches, each report's source page with them (SASS with its stall samples, NCU_SOURCE=1). Cases: 32x8x128 neox
# auto and fp8 (the row-warp kernel: issue 12's 1.6 / 1.8 us lines); the unit kernel where it is
# fast (32x8x128 gpt-j auto) and where it is 0.3-0.5 us slower at N = 1 (mla:16 gpt-j, 8x1x64
# gpt-j: the same kernel instantiation; 16x2x256 neox rot = 64, role-major): results/NOTES.md,
# "The unit kernel at N = 1". BIN (default s16a, the base) names the build; carry its tarball.
set -u
exec > >(tee -a $OUT/call4.log) 2>&1
for t in dist/s16a.tar.xz dist/s16b.tar.xz; do [[ -f $t ]] && tar -xJf $t; done
BIN=${BIN:-s16a}
chmod +x $BIN/rope-kv-bench
R=$OUT/ncu-n1; mkdir -p $R
export NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight SourceCounters WarpStateStats"
export NCU_CACHE_CONTROL=none NCU_SAMPLING_INTERVAL=0 NCU_SOURCE=1
for c in 'bf16|auto|32x8x128|neox|nhd|N=1' 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=1' \
  'bf16|auto|32x8x128|gptj|nhd|N=1' 'bf16|auto|mla:16|gptj|nhd|N=1' \
  'bf16|auto|8x1x64|gptj|nhd|N=1' 'bf16|auto|16x2x256|neox|nhd|N=1|rot=64'; do
  timeout 100 bash scripts/ncu.sh "$c" fused 3 $R $BIN/rope-kv-bench \
    >$R/log-$(echo "$c" | tr -c 'A-Za-z0-9\n' _).txt 2>&1
  echo "ncu $c: exit $?"
done
tar -C $OUT -czf $OUT/ncu-n1.tar.gz ncu-n1 && rm -rf $R
exit 0
