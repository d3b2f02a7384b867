#!/usr/bin/env bash
# Session 22, call 6 (carry ["dist/s22c.tar.xz"]: rope-kv-bench = the landed HEAD 9397137's
# binary (call 3's), exp-splitwaves = HEAD + split-sector-waves.patch (round 11)). The 4 moved
# cases (call6-cases.txt), cold, never-slower.json's timing, base / exp / base / exp; the rule
# fixed before the run (results/NOTES.md): ab_compare.py --subset moved --min-gain 3 exits 0.
# If it adopts: full matrix, memcheck on a moved launch, memcheck/initcheck/synccheck over the
# sanitizer config. $OUT/call6.tar.gz, packed after every step.
set -u
tar -xJf dist/s22c.tar.xz && chmod +x s22c/rope-kv-bench s22c/exp-*/rope-kv-bench
W=$OUT/call6
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call6.tar.gz.tmp call6 && mv $OUT/call6.tar.gz.tmp $OUT/call6.tar.gz; }
cases=()
while read -r id; do [[ -z $id ]] || cases+=(--case "$id"); done <results/h200/wave20/calls/call6-cases.txt
n=0
for b in s22c s22c/exp-splitwaves s22c s22c/exp-splitwaves; do
  n=$((n + 1))
  timeout -s INT -k 5 40 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run3.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision.txt 2>&1
rc=$?
echo "ab_compare: exit $rc" | tee -a $W/log.txt
pack
if ((rc == 0)); then
  bin=s22c/exp-splitwaves
  STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
  echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
  timeout -s INT -k 10 40 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $bin/rope-kv-bench validate --case 'bf16|auto|40x8x80|neox|nhd|N=65536' >$W/validate/memcheck-moved.txt 2>&1
  echo "memcheck moved: exit $? ($SECONDS s)" | tee -a $W/log.txt
  SANITIZER_TOOLS="memcheck initcheck synccheck" SANITIZER_TIMEOUT=10 BIN=$bin \
    OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
  echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
fi
exit 0
