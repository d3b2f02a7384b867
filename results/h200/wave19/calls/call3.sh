#!/usr/bin/env bash
# Session 21, call 3 (carry ["dist/s21b.tar.xz"]: base = 2f205fe's code (the exp-roles100 binary
# of calls 1-2), exp-fp8all / exp-fp8rows = 2f205fe + fp8-strided-all / -rows.patch). Round 5's
# A/B, first three passes: every fp8 launch either patch moves (call3-cases.txt: 94 ids, nhd,
# 2048/16k/65k, cold), with never-slower.json's timing, base / all / rows. call4.sh runs the base
# again, decides, validates. One tarball, $OUT/call3.tar.gz, packed after every pass.
set -u
tar -xJf dist/s21b.tar.xz && chmod +x s21b/rope-kv-bench s21b/exp-*/rope-kv-bench
W=$OUT/call3
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call3.tar.gz.tmp call3 && mv $OUT/call3.tar.gz.tmp $OUT/call3.tar.gz; }
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave19/calls/call3-cases.txt
n=0
for b in s21b s21b/exp-fp8all s21b/exp-fp8rows; do
  n=$((n + 1))
  timeout -s INT -k 10 170 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
exit 0
