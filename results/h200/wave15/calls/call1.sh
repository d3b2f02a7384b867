#!/usr/bin/env bash
# Session 17, call 1 (carry ["dist/s17.tar.xz"], built by build.sh; ~85 s start + ~110 s):
# rolewarps, which session 16's A/B left at "confirm first" (judged 14.3 % faster; one unjudged
# case 2.3 % slower). The `adopted` step re-reads that A/B's decisions (wave14's c1.tar.gz), so
# it runs the five-pass confirmation of the marked case (exp / base / exp, scripts/ab_confirm.py)
# and, if it holds, the full matrix and compute-sanitizer on rolewarps: everything in rw.tar.gz.
# Call 2 (the A/B) follows while the machine is warm.
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
tar -xJf dist/s17.tar.xz && chmod +x s17/rope-kv-bench s17/*/rope-kv-bench s17/rw/*/rope-kv-bench
mkdir -p $OUT/rw
tar -xzf results/h200/wave14/ab-s16-call1/c1.tar.gz -C $OUT/rw --strip-components=1 c1/ab.tar.gz
grep '^exp-rolewarps ' results/h200/wave14/ab-s16-call1/ab-decisions.txt >$OUT/rw/ab-decisions.txt
BIN=s17/rw OUT=$OUT/rw bash scripts/device_run.sh adopted
tar -C $OUT -czf $OUT/rw.tar.gz rw && rm -rf $OUT/rw
exit 0
