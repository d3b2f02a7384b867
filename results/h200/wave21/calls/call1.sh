#!/usr/bin/env bash
# Session 23, call 1 (carry ["dist/s23a.tar.xz"]: base = HEAD 29d3970, exp-wide = HEAD +
# fp8-flat-wide.patch, exp-wideb = HEAD + fp8-flat-wide-bounded.patch; round 12 in
# results/NOTES.md). The 36 cases the candidates move, in two bench invocations a pass (A's 12:
# call1-cases-a.txt; the rows' 24: call1-cases-rows.txt), cold / graph as never-slower.json times
# them, six passes base / wide / wideb / base / wide / wideb, and the rule fixed before the run:
# per build ab_compare.py --subset moved --min-gain 3 over both reports exits 0; if neither
# build passes, the same rule over A's reports alone (routing A lands). The adopted kernel is
# validated (full matrix, sanitizer, memcheck on moved launches). One tarball, packed after every
# step.
set -u
tar -xJf dist/s23a.tar.xz && chmod +x s23a/rope-kv-bench s23a/exp-*/rope-kv-bench
C=results/h200/wave21/calls
W=$OUT/call1
mkdir -p $W/ab
pack() { tar -C $OUT -czf $OUT/call1.tar.gz.tmp call1 && mv $OUT/call1.tar.gz.tmp $OUT/call1.tar.gz; }
ids() { while read -r id; do [[ -z $id ]] || printf -- '--case\n%s\n' "$id"; done <"$1"; }
mapfile -t ca < <(ids $C/call1-cases-a.txt)
mapfile -t cr < <(ids $C/call1-cases-rows.txt)
n=0
for b in s23a s23a/exp-wide s23a/exp-wideb s23a s23a/exp-wide s23a/exp-wideb; do
  n=$((n + 1))
  for part in a rows; do
    if [[ $part == a ]]; then args=("${ca[@]}"); else args=("${cr[@]}"); fi
    timeout -s INT -k 5 80 $b/rope-kv-bench bench --config configs/never-slower.json "${args[@]}" \
      --json $W/ab/run$n-$part.json >$W/ab/run$n-$part.txt 2>&1
    echo "run $n $part ($b): exit $? ($SECONDS s)" | tee -a $W/log.txt
  done
  pack
done
verdict() {  # $1 name, $2 $3 its runs, $4 parts ("a rows" or "a")
  local base1="" base4="" e1="" e2="" p
  for p in $4; do
    base1+=${base1:+,}$W/ab/run1-$p.json; base4+=${base4:+,}$W/ab/run4-$p.json
    e1+=${e1:+,}$W/ab/run$2-$p.json; e2+=${e2:+,}$W/ab/run$3-$p.json
  done
  python3 scripts/ab_compare.py --base $base1 --base $base4 --exp $e1,$e2 \
    --subset moved --min-gain 3 >$W/ab/decision-$1.txt 2>&1
  local rc=$?
  echo "ab_compare $1: exit $rc" | tee -a $W/log.txt
  return $rc
}
# The judged gain in percent, negative when slower ("judged geometric mean: X % faster|slower").
gain() { awk '/judged geometric mean:/ {print ($6 == "faster" ? $4 : -$4); exit}' $W/ab/decision-$1.txt; }
verdict wide 2 5 "a rows"; w=$?
verdict wideb 3 6 "a rows"; wb=$?
verdict wide-a 2 5 "a"; wa=$?
verdict wideb-a 3 6 "a"; wba=$?
echo "wide $w wideb $wb wide-a $wa wideb-a $wba" >>$W/log.txt
bin=s23a
if ((w == 0 || wb == 0)); then
  if ((w == 0 && wb == 0)); then
    [[ $(echo "$(gain wide) $(gain wideb)" | awk '{print ($1 >= $2)}') == 1 ]] && bin=s23a/exp-wide || bin=s23a/exp-wideb
  elif ((w == 0)); then bin=s23a/exp-wide; else bin=s23a/exp-wideb; fi
  echo "$bin routing B" >$W/adopted.txt
elif ((wa == 0 || wba == 0)); then
  if ((wa == 0 && wba == 0)); then
    [[ $(echo "$(gain wide-a) $(gain wideb-a)" | awk '{print ($1 >= $2)}') == 1 ]] && bin=s23a/exp-wide || bin=s23a/exp-wideb
  elif ((wa == 0)); then bin=s23a/exp-wide; else bin=s23a/exp-wideb; fi
  echo "$bin routing A" >$W/adopted.txt
else
  echo "none" >$W/adopted.txt
fi
pack
if [[ $bin != s23a ]]; then
  STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
  echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
  pack
  SANITIZER_TOOLS="memcheck initcheck synccheck racecheck" SANITIZER_TIMEOUT=10 BIN=$bin \
    OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
  echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
  for id in 'bf16|fp8_e4m3|mla:16|neox|nhd|N=2048' 'bf16|fp8_e4m3|32x32x128|gptj|nhd|N=2048' \
    'bf16|fp8_e4m3|32x32x128|neox|nhd|N=2048|rot=64' 'fp16|fp8_e4m3|40x8x80|neox|packed_nhd|N=2048'; do
    timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
      $bin/rope-kv-bench validate --case "$id" >>$W/validate/memcheck-moved.txt 2>&1
    echo "memcheck $id: exit $? ($SECONDS s)" | tee -a $W/log.txt
  done
  pack
fi
exit 0
