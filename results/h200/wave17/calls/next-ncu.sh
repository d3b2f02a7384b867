#!/usr/bin/env bash
# Prepared for session 20 (not run): why auto neox partial rotary at 65k tokens stays below the
# pair (results/NOTES.md, "Prepared for session 20"). Nsight Compute, SpeedOfLight, memory and
# occupancy sections, caches flushed before each replay (as the cold mode), two launches a variant:
# the fused kernel of 32x32x128 neox rot = 64 (role-major wide kernel, lo 0.942), of 32x8x128 neox
# rot = 64 (role-major strided, 0.966) and of 32x32x128 gpt-j rot = 64 (row-major strided, 1.005),
# and the pair's two kernels of the first. First HEAD's validation (full matrix, sanitizer) and
# kernel-ab-mla on it (its report's fused_launch rows against tests/fused_launch_test.cpp's
# routes), since the launcher was restructured after wave 17's run. Run build3.sh first (it
# builds HEAD into dist/s19c.tar.xz; DIR names another build) and carry its tarball. About 90 s
# for the validation, 40 s for the config and 90 s for the profiles, after the start.
set -u
exec > >(tee -a $OUT/ncu-call.log) 2>&1
DIR=${DIR:-s19c}
tar -xJf dist/$DIR.tar.xz && chmod +x $DIR/rope-kv-bench
W=$(mktemp -d)
BIN=$DIR OUT=$W/validate bash scripts/device_run.sh matrix sanitize
timeout -s INT -k 20 120 $DIR/rope-kv-bench bench --config configs/kernel-ab-mla.json \
  --json $W/routes-mla.json >$W/routes-mla.log 2>&1
R=$W/ncu-partial; mkdir -p $R
export NCU_SECTIONS="LaunchStats Occupancy SpeedOfLight MemoryWorkloadAnalysis WarpStateStats"
export NCU_CACHE_CONTROL=all
run() {
  timeout 100 bash scripts/ncu.sh "$1" "$2" 2 $R $DIR/rope-kv-bench \
    >$R/log-$2-$(echo "$1" | tr -c 'A-Za-z0-9\n' _).txt 2>&1
  echo "ncu $2 $1: exit $?"
}
run 'bf16|auto|32x32x128|neox|nhd|N=65536|rot=64' fused
run 'bf16|auto|32x32x128|neox|nhd|N=65536|rot=64' rope
run 'bf16|auto|32x32x128|neox|nhd|N=65536|rot=64' cache_write
run 'bf16|auto|32x8x128|neox|nhd|N=65536|rot=64' fused
run 'bf16|auto|32x32x128|neox|nhd|N=16384|rot=64' fused  # where fused still leads (205.7 vs 214.9 us)
run 'bf16|auto|32x32x128|gptj|nhd|N=65536|rot=64' fused
tar -C $W -czf $OUT/ncu-call.tar.gz .  # one file: the tool brings back at most 8
exit 0
