#!/usr/bin/env bash
# Session 16, last call (what call1 decided): rolewarps passed its rule (judged subset 14.3 %
# faster) but ab_compare asked for the five-pass confirmation of one unjudged control,
# bf16|fp8_e4m3|32x8x128|neox|nhd|N=128 in a graph (+2.3 %, base drift -1.7 %). Confirm it
# (exp / base / exp, five passes each; scripts/ab_confirm.py: slower only if both experiment runs
# are > 2 % above the base, as in session 11), then validate the rolewarps build (full matrix, compute-sanitizer) and
# spend what is left on never-slower shards with it (each packed as it ends). Carry
# ["dist/s16a.tar.xz"] (build.sh).
set -u
exec > >(tee -a $OUT/call5.log) 2>&1
tar -xJf dist/s16a.tar.xz && chmod +x s16a/rope-kv-bench s16a/*/rope-kv-bench
E=s16a/exp-rolewarps
C=$OUT/confirm && mkdir -p $C
printf 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=128\tgraph\tfused\n' >$C/cases.txt
n=0
for b in $E s16a $E; do
  n=$((n + 1))
  $b/rope-kv-bench bench --case 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=128' --mode graph --passes 5 \
    --json $C/confirm-$n.json | tail -3
done
python3 scripts/ab_confirm.py judge --cases $C/cases.txt --base $C/confirm-2.json \
  --exp $C/confirm-1.json --exp $C/confirm-3.json | tee $C/verdict.txt
tar -C $OUT -czf $OUT/confirm.tar.gz confirm && rm -rf $C
BIN=$E OUT=$OUT/val bash scripts/device_run.sh matrix sanitize
tar -C $OUT -czf $OUT/val.tar.gz val && rm -rf $OUT/val
for k in ${NS_SHARDS_RUN:-4 5 6}; do
  BIN=$E NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower
  tar -C $OUT -czf $OUT/ns-rolewarps.tar.gz ns
done
rm -rf $OUT/ns
exit 0
