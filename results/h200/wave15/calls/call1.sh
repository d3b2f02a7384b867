#!/usr/bin/env bash
# Session 17, call 1 (carry ["dist/s17.tar.xz"], built by build.sh; ~85 s start + ~110 s):
# rolewarps (session 16: judged 14.3 % faster, "confirm first" on one unjudged case): the
# five-pass confirmation of bf16|fp8_e4m3|32x8x128|neox|nhd|N=128 (exp / base / exp,
# scripts/ab_confirm.py), then the full matrix and compute-sanitizer on that build; everything
# packed in rw.tar.gz. Call 2 (the A/B) follows while the machine is warm.
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
tar -xJf dist/s17.tar.xz && chmod +x s17/rope-kv-bench s17/*/rope-kv-bench s17/rw/*/rope-kv-bench
E=s17/rw/exp-rolewarps
C=$OUT/rw && mkdir -p $C
printf 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=128\tgraph\tfused\n' >$C/cases.txt
n=0
for b in $E s17 $E; do
  n=$((n + 1))
  $b/rope-kv-bench bench --case 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=128' --mode graph --passes 5 \
    --json $C/confirm-$n.json | tail -3
done
python3 scripts/ab_confirm.py judge --cases $C/cases.txt --base $C/confirm-2.json \
  --exp $C/confirm-1.json --exp $C/confirm-3.json | tee $C/verdict.txt
BIN=$E OUT=$C bash scripts/device_run.sh matrix sanitize
tar -C $OUT -czf $OUT/rw.tar.gz rw && rm -rf $C
exit 0
