#!/usr/bin/env bash
# Session 16 round 1 (results/NOTES.md, "Session 16 round 1"): base = HEAD, pf1 and pf2 =
# base + experiments/patches/prefetch-next.patch with RKV_PREFETCH_NEXT=1 / 2, on
# kernel-ab-partial, -stride and -rotary with the base again last; each judged on its subset with
# the default 3 %. An adopted build gets the validation matrix and the sanitizer set in the same
# call. Build with build.sh; carry ["dist/s16b.tar.xz"].
set -u
exec > >(tee -a $OUT/call2.log) 2>&1
tar -xJf dist/s16b.tar.xz
D=s16b
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
mkdir -p $OUT/c2
BIN=$D OUT=$OUT/c2 AB_CONFIGS="partial stride rotary" bash scripts/device_run.sh ab
tar -C $OUT -czf $OUT/ab-step.tar.gz c2
BIN=$D OUT=$OUT/c2 bash scripts/device_run.sh adopted
tar -C $OUT -czf $OUT/c2.tar.gz c2 && rm -rf $OUT/c2 $OUT/ab-step.tar.gz
exit 0
