#!/usr/bin/env bash
# NOT SENT: round 5 was rejected on call 3's runs already (results/NOTES.md).
# Session 21, call 4 (carry ["dist/s21b.tar.xz"] and call 3's runs under results/h200/wave19/ab-fp8s/,
# run1-3.json): the base again (run4), then round 5's rule for each candidate, fixed before the
# run (results/NOTES.md): ab_compare.py --subset moved --min-gain 3 exits 0; fp8all preferred.
# The picked build is validated (matrix, sanitizer) and the never-slower cases it moves are
# timed again in packed_nhd (their nhd rows are its A/B run). $OUT/call4.tar.gz.
set -u
tar -xJf dist/s21b.tar.xz && chmod +x s21b/rope-kv-bench s21b/exp-*/rope-kv-bench
W=$OUT/call4
R=results/h200/wave19/ab-fp8s
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call4.tar.gz.tmp call4 && mv $OUT/call4.tar.gz.tmp $OUT/call4.tar.gz; }
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave19/calls/call3-cases.txt
timeout -s INT -k 10 170 s21b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --json $W/ab/run4.json >$W/ab/run4.txt 2>&1
echo "run 4 (s21b): exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
pick=none
for e in fp8rows:run3 fp8all:run2; do  # all last: it wins when both pass
  name=${e%%:*} run=${e##*:}
  python3 scripts/ab_compare.py --base $R/run1.json --base $W/ab/run4.json --exp $R/$run.json \
    --subset moved --min-gain 3 >$W/ab/decision-$name.txt 2>&1
  rc=$?
  echo "$name: ab_compare exit $rc" | tee -a $W/log.txt
  ((rc == 0)) && pick=$name
done
echo "$pick" >$W/picked.txt
pack
if [[ $pick != none ]]; then
  bin=s21b/exp-$pick
  BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix sanitize >>$W/log.txt 2>&1
  echo "validate: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
  packed=()
  while read -r id; do
    [[ $id == *mla:* ]] || packed+=(--case "${id/|nhd|/|packed_nhd|}")
  done <results/h200/wave19/calls/call3-cases.txt
  timeout -s INT -k 10 170 $bin/rope-kv-bench bench --config configs/never-slower.json "${packed[@]}" \
    --json $W/ab/packed-$pick.json >$W/ab/packed-$pick.txt 2>&1
  echo "packed recount: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
fi
exit 0
