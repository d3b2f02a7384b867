#!/usr/bin/env bash
# Session 23, call 5 (carry ["dist/s23d.tar.xz"]: base = round 14's adopted binary (the landed
# 492012f's code), exp-gqar = 492012f + fp8-flat-wide-gqa-roles.patch; round 15 in
# results/NOTES.md). The 18 cases it moves (call5-cases.txt), as never-slower.json times them,
# four passes base / gqar / base / gqar; the rule fixed before the run: ab_compare.py --subset
# moved --min-gain 3 exits 0 -> adopt, then the full matrix, the four sanitizer tools and memcheck
# on a moved launch. One tarball, packed after every step.
set -u
tar -xJf dist/s23d.tar.xz && chmod +x s23d/rope-kv-bench s23d/exp-*/rope-kv-bench
W=$OUT/call5
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call5.tar.gz.tmp call5 && mv $OUT/call5.tar.gz.tmp $OUT/call5.tar.gz; }
cases=()
while read -r id; do [[ -z $id ]] || cases+=(--case "$id"); done <results/h200/wave21/calls/call5-cases.txt
n=0
for b in s23d s23d/exp-gqar s23d s23d/exp-gqar; do
  n=$((n + 1))
  timeout -s INT -k 5 80 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run3.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision-gqar.txt 2>&1
rc=$?
echo "ab_compare gqar: exit $rc" | tee -a $W/log.txt
((rc == 0)) && bin=s23d/exp-gqar || bin=s23d
echo "$bin" >$W/adopted.txt
pack
if [[ $bin != s23d ]]; then
  STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
  echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
  SANITIZER_TOOLS="memcheck initcheck synccheck racecheck" SANITIZER_TIMEOUT=60 BIN=$bin \
    OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
  echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
  timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $bin/rope-kv-bench validate --case 'bf16|fp8_e4m3|16x2x256|neox|packed_nhd|N=2048|rot=128' \
    >>$W/validate/memcheck-moved.txt 2>&1
  echo "memcheck moved: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
fi
exit 0
