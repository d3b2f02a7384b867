#!/usr/bin/env bash
# Session 24, call 1 (carry ["dist/s24a.tar.xz"]: base = HEAD 8623f38's kernels, exp-n10 = base +
# fp8-neox-strided-10.patch; round 17 in results/NOTES.md).
# 1. A decode diagnostic on the base build (no decision rides on it): ncu's source page of the
#    row-warp kernel at N = 1, 32x8x128 bf16, auto and fp8 caches, caches warm as in a graph
#    replay, the densest warp sampling; and the SASS of both row-warp kernels. $OUT/c1-diag.tar.gz
# 2. Round 17 by the tool: two interleaved rounds over the 16 cases, the rule, then the adopted
#    build's matrix and sanitizer set. $OUT/c1.tar.gz
# 3. The floor cells of issue 12 (bf16/fp16 x auto/fp8 x 32x32x128, 32x8x128, 64x8x128, both
#    styles, 16k/65k, cold) on the adopted build, or the base where none. $OUT/c1-floor.tar.gz
set -u
tar -xJf dist/s24a.tar.xz && chmod +x s24a/rope-kv-bench s24a/exp-*/rope-kv-bench
D=$OUT/c1-diag
mkdir -p $D
for c in 'bf16|auto|32x8x128|neox|nhd|N=1' 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=1'; do
  NCU_SOURCE=1 NCU_CACHE_CONTROL=none NCU_SAMPLING_INTERVAL=0 \
    NCU_SECTIONS="SpeedOfLight LaunchStats Occupancy WarpStateStats SourceCounters" \
    timeout -k 5 60 bash scripts/ncu.sh "$c" fused 5 $D s24a/rope-kv-bench >>$D/log.txt 2>&1
  echo "ncu $c: exit $? ($SECONDS s)" | tee -a $D/log.txt
done
rm -f $D/*.ncu-rep
if command -v cuobjdump >/dev/null || [[ -x /usr/local/cuda/bin/cuobjdump ]]; then
  cuo=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  $cuo -sass s24a/rope-kv-bench 2>/dev/null | awk '
    /Function :/ { keep = ($0 ~ /row_warp_kernel/ && $0 ~ /nv_bfloat16/ && $0 ~ /Li8E/) }
    keep' >$D/row-warp-bf16-sass.txt
  echo "sass: $(grep -c 'Function :' $D/row-warp-bf16-sass.txt) functions ($SECONDS s)" | tee -a $D/log.txt
fi
tar -C $OUT -czf $OUT/c1-diag.tar.gz c1-diag && rm -rf $D
AB_ROUNDS=2 AB_CASES=results/h200/wave22/calls/call1-cases.txt \
  bash scripts/ab_call.sh dist/s24a.tar.xz s24a c1
echo "ab_call done ($SECONDS s)"
adopted=$(tar -xzf $OUT/c1.tar.gz -O c1/adopted.txt 2>/dev/null | head -1)
bin=s24a
[[ $adopted == exp-* && -x s24a/$adopted/rope-kv-bench ]] && bin=s24a/$adopted
F=$OUT/c1-floor
mkdir -p $F
echo "floor on $bin (adopted: '${adopted}')" >$F/log.txt
((SECONDS + 130 < 590)) && {
  timeout -s INT -k 10 120 $bin/rope-kv-bench bench --config configs/never-slower.json \
    --dtype bf16,fp16 --cache-dtype auto,fp8_e4m3 --heads 32x32x128,32x8x128,64x8x128 \
    --style neox,gptj --rot-dim full --layout nhd --tokens 16384,65536 --mode cold \
    --json $F/floor.json >$F/floor.txt 2>&1
  echo "floor: exit $? ($SECONDS s)" | tee -a $F/log.txt
}
tar -C $OUT -czf $OUT/c1-floor.tar.gz c1-floor && rm -rf $F
exit 0
