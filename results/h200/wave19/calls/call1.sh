#!/usr/bin/env bash
# Session 21, call 1 (carry ["dist/s21a.tar.xz"] from build1.sh: base = HEAD bb33060, exp-roles100
# = HEAD + long-waves-roles100.patch). Round 4 judged on the launches the patch moves
# (plan_fused_launch without a GPU: 32x8x128, 40x8x80 neox rot = 64 and 16x2x256 neox rot = 128 at
# 65k, nhd and packed; every other launch of the two builds is identical), cold, five passes
# base / exp / base / exp / base, and the rule decided here, fixed before the run
# (results/NOTES.md, session 21): ab_compare.py --subset moved --min-gain 3 exits 0. The build it
# picks is validated when it is the experiment (matrix, sanitizer, memcheck on one moved launch;
# the base is HEAD, validated in session 20's call 6), then shards 1-4 of 8 of the never-slower
# survey run on it. One tarball, $OUT/call1.tar.gz, packed after every step.
set -u
tar -xJf dist/s21a.tar.xz && chmod +x s21a/rope-kv-bench s21a/exp-roles100/rope-kv-bench
W=$OUT/call1
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call1.tar.gz.tmp call1 && mv $OUT/call1.tar.gz.tmp $OUT/call1.tar.gz; }
cases=()
for id in '32x8x128|neox|nhd|N=65536|rot=64' '32x8x128|neox|packed_nhd|N=65536|rot=64' \
  '40x8x80|neox|nhd|N=65536|rot=64' '40x8x80|neox|packed_nhd|N=65536|rot=64' \
  '16x2x256|neox|nhd|N=65536|rot=128' '16x2x256|neox|packed_nhd|N=65536|rot=128'; do
  cases+=(--case "bf16|auto|$id")
done
n=0
for b in s21a s21a/exp-roles100 s21a s21a/exp-roles100 s21a; do
  n=$((n + 1))
  timeout -s INT -k 5 60 $b/rope-kv-bench bench "${cases[@]}" --mode cold \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $?" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json,$W/ab/run3.json --base $W/ab/run5.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision.txt 2>&1
rc=$?
echo "ab_compare exit $rc" | tee -a $W/log.txt
if ((rc == 0)); then
  bin=s21a/exp-roles100
  BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix sanitize >>$W/log.txt 2>&1
  id='bf16|auto|32x8x128|neox|nhd|N=65536|rot=64'
  timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $bin/rope-kv-bench validate --case "$id" >$W/validate/memcheck-roles100.txt 2>&1
  echo "memcheck $id: exit $?" | tee -a $W/log.txt
else
  bin=s21a
fi
echo "$bin" >$W/adopted.txt
pack
for k in 1 2 3 4; do
  NS_SHARD=$k BIN=$bin OUT=$W/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $?" | tee -a $W/log.txt
  pack
done
exit 0
