#!/usr/bin/env bash
# Session 23, call 3 (carry ["dist/s23c.tar.xz"]: base = HEAD's kernels (29d3970, call 1's base
# binary), exp-mhaw = HEAD + fp8-flat-wide-mha-waves.patch; round 14 in results/NOTES.md). The 18 cases it
# moves (call3-cases.txt), as never-slower.json times them, four passes base / mhaw / base / mhaw;
# the rule fixed before the run: ab_compare.py --subset moved --min-gain 3 exits 0 -> adopt. An
# adopted build is then validated (full matrix, the four sanitizer tools, memcheck on two moved
# launches), its floor cells measured (bf16/fp16 x auto/fp8 x 32x32x128, both styles, 16k/65k),
# and the seed table run on it. One tarball, packed after every step.
set -u
tar -xJf dist/s23c.tar.xz && chmod +x s23c/rope-kv-bench s23c/exp-*/rope-kv-bench
W=$OUT/call3
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call3.tar.gz.tmp call3 && mv $OUT/call3.tar.gz.tmp $OUT/call3.tar.gz; }
cases=()
while read -r id; do [[ -z $id ]] || cases+=(--case "$id"); done <results/h200/wave21/calls/call3-cases.txt
n=0
for b in s23c s23c/exp-mhaw s23c s23c/exp-mhaw; do
  n=$((n + 1))
  timeout -s INT -k 5 80 $b/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
    --json $W/ab/run$n.json >$W/ab/run$n.txt 2>&1
  echo "run $n ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
done
python3 scripts/ab_compare.py --base $W/ab/run1.json --base $W/ab/run3.json \
  --exp $W/ab/run2.json,$W/ab/run4.json --subset moved --min-gain 3 >$W/ab/decision-mhaw.txt 2>&1
rc=$?
echo "ab_compare mhaw: exit $rc" | tee -a $W/log.txt
((rc == 0)) && bin=s23c/exp-mhaw || bin=s23c
echo "$bin" >$W/adopted.txt
pack
if [[ $bin != s23c ]]; then
STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
SANITIZER_TOOLS="memcheck initcheck synccheck racecheck" SANITIZER_TIMEOUT=10 BIN=$bin \
  OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
for id in 'bf16|fp8_e4m3|32x32x128|gptj|packed_nhd|N=2048|rot=64' 'fp16|fp8_e5m2|32x32x128|neox|nhd|N=2048'; do
  timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $bin/rope-kv-bench validate --case "$id" >>$W/validate/memcheck-moved.txt 2>&1
  echo "memcheck $id: exit $? ($SECONDS s)" | tee -a $W/log.txt
done
pack
timeout -s INT -k 10 120 $bin/rope-kv-bench bench --config configs/never-slower.json \
  --dtype bf16,fp16 --cache-dtype auto,fp8_e4m3 --heads 32x32x128 \
  --style neox,gptj --rot-dim full --layout nhd --tokens 16384,65536 --mode cold \
  --json $W/floor.json >$W/floor.txt 2>&1
echo "floor: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
((SECONDS + 70 < 590)) && {
  STEP_TIMEOUT=60 BIN=$bin OUT=$W/seed bash scripts/device_run.sh seed >>$W/log.txt 2>&1
  echo "seed: exit $? ($SECONDS s)" | tee -a $W/log.txt
}
pack
fi
exit 0
