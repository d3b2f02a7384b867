#!/usr/bin/env bash
# Session 20, call 6 (carry ["dist/s20c.tar.xz"]): the adopted long-waves-200 build validated
# (round 3 adopts on its moved launches: ab_compare.py --subset; the call-5 step judged all 26
# cases and adopted nothing, so it did not validate): full matrix and sanitizer, then memcheck on
# two 65k cases that take the 16-wave grids (the matrix's sizes stay below 200 units a thread).
set -u
exec > >(tee -a $OUT/call6.log) 2>&1
tar -xJf dist/s20c.tar.xz && chmod +x s20c/exp-longwaves200/rope-kv-bench
B=s20c/exp-longwaves200
BIN=$B OUT=$OUT/validate bash scripts/device_run.sh matrix sanitize
for id in 'bf16|auto|32x32x128|neox|nhd|N=65536|rot=64' 'bf16|auto|64x8x128|neox|nhd|N=65536'; do
  timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $B/rope-kv-bench validate --case "$id" >$OUT/validate/memcheck-$(echo "$id" | tr -c 'A-Za-z0-9\n' _).txt 2>&1
  echo "memcheck $id: exit $?"
done
tar -C $OUT -czf $OUT/call6.tar.gz validate && rm -rf $OUT/validate
exit 0
