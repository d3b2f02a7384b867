#!/usr/bin/env bash
# Session 18, call 1 (carry ["dist/s18.tar.xz"], built by build.sh; ~85 s start + ~450 s):
# round 1 (results/NOTES.md, "Session 18 round 1"): base, mlasparse, base again on kernel-ab-mla
# and kernel-ab-splitrot, judged on its subset at 3 %; the adopted step confirms a "confirm
# first" verdict and validates (matrix, sanitizer) in the same call. If mlasparse is adopted, the
# never-slower survey's 48 mla:128 cases run on it (ns-mla128.json), for the survey's count.
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
AB_CONFIGS="mla splitrot" AB_PREFER="exp-mlasparse" bash scripts/ab_call.sh dist/s18.tar.xz s18 c1
if [[ $(tar -xzOf $OUT/c1.tar.gz c1/adopted.txt 2>/dev/null) == exp-mlasparse ]]; then
  timeout -s INT -k 30 240 s18/exp-mlasparse/rope-kv-bench bench --config configs/never-slower.json \
    --heads mla:128 --json $OUT/ns-mla128.json >$OUT/ns-mla128.log 2>&1
  echo "mla:128 survey: exit $?"
fi
exit 0
