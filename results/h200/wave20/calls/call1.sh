#!/usr/bin/env bash
# Session 22, call 1 (carry ["dist/s22a.tar.xz"] from build1.sh: base = HEAD, exp-waves = HEAD +
# fp8-long-waves.patch (round 8), exp-roles = HEAD + fp8-roles-gqa.patch (round 9), exp-both = HEAD +
# fp8-waves-roles.patch (both)), and exp-straddle = HEAD + straddle-waves.patch (round 10, from
# build1-straddle.sh). The 22 cases either candidate moves (call1-cases.txt), cold,
# never-slower.json's timing, six passes base / waves / roles / base / waves / roles, and the rule
# fixed before the run (results/NOTES.md, session 22): per candidate, ab_compare.py --subset moved
# --min-gain 3 exits 0. The build to land (both, one, or the base) is validated when it is not the
# base (full matrix, sanitizer). Round 10 next: its 6 cases (call1-straddle-cases.txt), base /
# straddle / base / straddle, the same rule; validated later with whatever lands. Then
# never-slower shards run on it while the call has time
# (shards.txt says which finished). One tarball, $OUT/call1.tar.gz, packed after every step.
set -u
tar -xJf dist/s22a.tar.xz && chmod +x s22a/rope-kv-bench s22a/exp-*/rope-kv-bench
W=$OUT/call1
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call1.tar.gz.tmp call1 && mv $OUT/call1.tar.gz.tmp $OUT/call1.tar.gz; }
cases=()
while read -r id; do [[ -z $id ]] || cases+=(--case "$id"); done <results/h200/wave20/calls/call1-cases.txt
n=0
for b in s22a s22a/exp-waves s22a/exp-roles s22a s22a/exp-waves s22a/exp-roles; do
  n=$((n + 1))
  timeout -s INT -k 5 70 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
verdict() {  # $1 name, $2 $3 its runs
  python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run4.json \
    --exp $W/ab/run$2.json,$W/ab/run$3.json --subset moved --min-gain 3 >$W/ab/decision-$1.txt 2>&1
  local rc=$?
  echo "ab_compare $1: exit $rc" | tee -a $W/log.txt
  return $rc
}
cases10=()
while read -r id; do [[ -z $id ]] || cases10+=(--case "$id"); done <results/h200/wave20/calls/call1-straddle-cases.txt
for b in s22a s22a/exp-straddle s22a s22a/exp-straddle; do
  n=$((n + 1))
  timeout -s INT -k 5 40 $b/rope-kv-bench bench --config configs/never-slower.json "${cases10[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run7.json --base $W/ab/run9.json \
  --exp $W/ab/run8.json,$W/ab/run10.json --subset moved --min-gain 3 >$W/ab/decision-straddle.txt 2>&1
echo "ab_compare straddle: exit $?" | tee -a $W/log.txt
verdict waves 2 5; waves=$?
verdict roles 3 6; roles=$?
if ((waves == 0 && roles == 0)); then bin=s22a/exp-both
elif ((waves == 0)); then bin=s22a/exp-waves
elif ((roles == 0)); then bin=s22a/exp-roles
else bin=s22a; fi
echo "$bin" >$W/adopted.txt
pack
if [[ $bin != s22a ]]; then
  STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
  echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
  SANITIZER_TOOLS="memcheck initcheck synccheck racecheck" SANITIZER_TIMEOUT=10 BIN=$bin \
    OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
  echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
  # The matrix's sizes reach neither new route (16 waves; role-major fp8 from 16 units a thread):
  # memcheck on one launch of each (the A/B's bench runs validated all 22 moved cases).
  for id in 'bf16|fp8_e4m3|28x4x128|neox|nhd|N=16384|rot=64' 'bf16|fp8_e4m3|32x32x128|gptj|nhd|N=65536'; do
    timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
      $bin/rope-kv-bench validate --case "$id" >>$W/validate/memcheck-moved.txt 2>&1
    echo "memcheck $id: exit $? ($SECONDS s)" | tee -a $W/log.txt
  done
  pack
fi
for k in 1 2 3 4 5 6 7 8; do
  ((SECONDS + 100 < 560)) || break
  NS_SHARD=$k BIN=$bin OUT=$W/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a $W/log.txt
  echo "$k" >>$W/shards.txt
  pack
done
exit 0
