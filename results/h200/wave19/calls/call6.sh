#!/usr/bin/env bash
# Session 21, call 6 (carry ["dist/s21d.tar.xz"]: base = ca1130a's code (the exp-fp8gqa binary of
# call 5), exp-fp8neox = HEAD + fp8-strided-neox.patch). Round 7 with the device time left (252 s,
# a machine start included): the 8 launches the patch moves (call6-cases.txt), cold,
# never-slower.json's timing, base / exp / base / exp, and the rule fixed before the run
# (results/NOTES.md): ab_compare.py --subset moved --min-gain 3 exits 0. No validation fits in
# this call: an adoption waits for session 22's matrix and sanitizer run. $OUT/call6.tar.gz.
set -u
tar -xJf dist/s21d.tar.xz && chmod +x s21d/rope-kv-bench s21d/exp-*/rope-kv-bench
W=$OUT/call6
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call6.tar.gz.tmp call6 && mv $OUT/call6.tar.gz.tmp $OUT/call6.tar.gz; }
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave19/calls/call6-cases.txt
n=0
for b in s21d s21d/exp-fp8neox s21d s21d/exp-fp8neox; do
  n=$((n + 1))
  timeout -s INT -k 5 40 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run3.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision.txt 2>&1
rc=$?
echo "ab_compare exit $rc" | tee -a $W/log.txt
pack
exit 0
