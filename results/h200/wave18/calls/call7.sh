#!/usr/bin/env bash
# Session 20, call 7 (carry ["dist/s21a.tar.xz"]: base = long-waves-200 as validated in call 6,
# code-identical to HEAD; exp-roles100 from long-waves-roles100.patch): round 4 with the device
# time left (177 s, a machine start included), so only the launches the patch moves (plan_fused_launch
# says which, without a GPU; every other launch is identical), base / exp / base again, cold, one
# pass each, packed in $OUT/call7.tar.gz. The grids these launches take are the ones round 2's
# build ran and call 4 validated (matrix, sanitizer, never-slower's 144 cases): same kernel code,
# same CTA counts.
set -u
tar -xJf dist/s21a.tar.xz && chmod +x s21a/rope-kv-bench s21a/exp-roles100/rope-kv-bench
W=$(mktemp -d)
cases=(--case 'bf16|auto|32x8x128|neox|nhd|N=65536|rot=64'
       --case 'bf16|auto|40x8x80|neox|nhd|N=65536|rot=64'
       --case 'bf16|auto|16x2x256|neox|nhd|N=65536|rot=128'
       --case 'bf16|auto|32x8x128|neox|packed_nhd|N=65536|rot=64')
n=0
for b in s21a s21a/exp-roles100 s21a; do
  n=$((n + 1))
  timeout -s INT -k 5 40 $b/rope-kv-bench bench "${cases[@]}" --mode cold \
    --json $W/run$n.json >$W/run$n.txt 2>&1
  echo "run $n ($b): exit $?"
  tar -C $W -czf $OUT/call7.tar.gz .  # after each run: a call cut short still brings these back
done
exit 0
