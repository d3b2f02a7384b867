#!/usr/bin/env bash
# Prepared for session 21 (not run; carry ["dist/s21a.tar.xz"] from next-build.sh): the A/B of
# long-waves-roles100 on kernel-ab-stride and kernel-ab-partial, judged on the launches it moves
# (AB_SUBSET=moved), base first and last, the adopted build validated by ab_call.sh (matrix,
# sanitizer); then memcheck on one moved launch. About 3 x 115 s + 85 s.
set -u
AB_SUBSET=moved AB_CONFIGS="stride partial" bash scripts/ab_call.sh dist/s21a.tar.xz s21a roles100
B=s21a/exp-roles100
id='bf16|auto|32x8x128|neox|nhd|N=65536|rot=64'
timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
  $B/rope-kv-bench validate --case "$id" >$OUT/memcheck-roles100.txt 2>&1
echo "memcheck $id: exit $?"
exit 0
