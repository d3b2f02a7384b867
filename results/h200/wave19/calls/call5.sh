#!/usr/bin/env bash
# Session 21, call 5 (carry ["dist/s21c.tar.xz"]: base = 2f205fe's code (the exp-roles100 binary
# of calls 1-2), exp-fp8gqa = 2f205fe + fp8-strided-gqa.patch). Round 6: the 18 launches the patch
# moves (call5-cases.txt), cold, never-slower.json's timing, base / exp / base / exp; the rule
# fixed before the run (results/NOTES.md): ab_compare.py --subset moved --min-gain 3 exits 0.
# If adopted: matrix, sanitizer, and the moved non-MLA cases in packed_nhd. $OUT/call5.tar.gz.
set -u
tar -xJf dist/s21c.tar.xz && chmod +x s21c/rope-kv-bench s21c/exp-*/rope-kv-bench
W=$OUT/call5
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call5.tar.gz.tmp call5 && mv $OUT/call5.tar.gz.tmp $OUT/call5.tar.gz; }
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave19/calls/call5-cases.txt
n=0
for b in s21c s21c/exp-fp8gqa s21c s21c/exp-fp8gqa; do
  n=$((n + 1))
  timeout -s INT -k 10 100 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run3.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision.txt 2>&1
rc=$?
echo "ab_compare exit $rc" | tee -a $W/log.txt
pack
if ((rc == 0)); then
  bin=s21c/exp-fp8gqa
  BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix sanitize >>$W/log.txt 2>&1
  echo "validate: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
  packed=()
  while read -r id; do
    [[ $id == *mla:* ]] || packed+=(--case "${id/|nhd|/|packed_nhd|}")
  done <results/h200/wave19/calls/call5-cases.txt
  timeout -s INT -k 10 100 $bin/rope-kv-bench bench --config configs/never-slower.json "${packed[@]}" \
    --json $W/ab/packed.json >$W/ab/packed.txt 2>&1
  echo "packed: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
fi
exit 0
