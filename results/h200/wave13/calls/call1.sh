#!/usr/bin/env bash
# Session 14, call 1: (a) Nsight Compute at N = 1 with enough stall samples to rank instructions:
# 200 launches of the fused kernel of 8ae3308 (SASS identical to b2f7409), caches left as the
# previous launch left them (--cache-control none, as in a graph replay), sampling sections only;
# neox auto GQA/MHA (row-warp kernel), neox fp8 GQA, gpt-j auto GQA (unit kernel), and the
# pair's cache-write kernel on GQA for scale; each with its SASS source page. (b) never-slower
# shards 1-4 of 8 with the same binary (the survey session 13 left for this one).
# carry ["dist/s14a.tar.xz"] (dist-s14a/rope-kv-bench: 8ae3308, stripped).
set -u
tar -xJf dist/s14a.tar.xz
B=dist-s14a
R=$OUT/ncu-n1b; mkdir -p $R
export NCU_SECTIONS="SpeedOfLight LaunchStats Occupancy WarpStateStats SourceCounters" NCU_CACHE_CONTROL=none
while read -r c v; do
  timeout 100 bash scripts/ncu.sh "$c" "$v" 200 $R $B/rope-kv-bench >$R/log-$v-$(echo "$c" | tr -c 'A-Za-z0-9\n' _).txt 2>&1
  echo "ncu $v $c: exit $?"
done <<'CASES'
bf16|auto|32x8x128|neox|nhd|N=1 fused
bf16|auto|32x32x128|neox|nhd|N=1 fused
bf16|fp8_e4m3|32x8x128|neox|nhd|N=1 fused
bf16|auto|32x8x128|gptj|nhd|N=1 fused
bf16|auto|32x8x128|neox|nhd|N=1 cache_write
CASES
for rep in $R/*.ncu-rep; do
  timeout 60 ncu --import "$rep" --page source --print-source sass --csv >"${rep%.ncu-rep}.source.csv" 2>&1
  echo "source page $(basename "$rep"): exit $?"
done
tar -C $OUT -czf $OUT/ncu-n1b.tar.gz ncu-n1b && rm -rf $R
for k in 1 2 3 4; do BIN=$B NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower; done
tar -C $OUT -czf $OUT/ns.tar.gz ns && rm -rf $OUT/ns
