#!/usr/bin/env bash
# Session 20, call 4 (carry ["dist/s20b.tar.xz"]): round 2's verdict on the judged subset (the 20
# moved launches, as its prediction named them) is "confirm first": 16x2x256 neox full at 65k
# +2.1 %. So: that confirmation (5 passes, exp / base / exp, scripts/ab_confirm.py), then the
# experiment build's validation (full matrix, sanitizer) and the never-slower sweep's auto-cache
# cases at 16k and 65k tokens on it (every launch the rule can move; 144 cases), packed in
# $OUT/call4.tar.gz. About 30 + 85 + 220 s.
set -u
exec > >(tee -a $OUT/call4.log) 2>&1
tar -xJf dist/s20b.tar.xz && chmod +x s20b/rope-kv-bench s20b/exp-longwaves/rope-kv-bench
W=$(mktemp -d)
id='bf16|auto|16x2x256|neox|nhd|N=65536'
mkdir -p $W/confirm
printf '%s\tcold\tfused\n' "$id" >$W/confirm/cases.txt
n=0
for b in s20b/exp-longwaves s20b s20b/exp-longwaves; do
  n=$((n + 1))
  timeout -s INT -k 20 120 $b/rope-kv-bench bench --case "$id" --mode cold --passes 5 \
    --json $W/confirm/run$n-cold.json >$W/confirm/run$n-cold.txt 2>&1
done
python3 scripts/ab_confirm.py judge --cases $W/confirm/cases.txt --base $W/confirm/run2-cold.json \
  --exp $W/confirm/run1-cold.json --exp $W/confirm/run3-cold.json | tee $W/confirm/verdict.txt
echo "confirm exit ${PIPESTATUS[0]}"
BIN=s20b/exp-longwaves OUT=$W/validate bash scripts/device_run.sh matrix sanitize
timeout -s INT -k 20 280 s20b/exp-longwaves/rope-kv-bench bench --config configs/never-slower.json \
  --tokens 16384,65536 --cache-dtype auto --json $W/never-slower-auto-16k-65k.json \
  >$W/never-slower-auto-16k-65k.txt 2>&1
echo "never-slower subset: exit $?"
tar -C $W -czf $OUT/call4.tar.gz .
exit 0
