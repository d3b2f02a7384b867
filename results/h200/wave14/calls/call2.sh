#!/usr/bin/env bash
# Session 16 round 1 (results/NOTES.md, "Session 16 round 1"): base = HEAD; pf1, pf2 and pf1fp8 =
# base + experiments/patches/prefetch-next.patch with RKV_PREFETCH_NEXT=1 / 2 / 1 and
# RKV_FP8_ROLES_STRIDED=1, on kernel-ab-partial and -stride (86 cases; -rotary left out for time,
# its cases repeat partial's at 16k) with the base again last; each judged on its subset with the
# default 3 %. The build to validate is the first of pf1fp8, pf1, pf2 that both rules adopt
# (pf1fp8 holds pf1's change and more); it gets the validation matrix and the sanitizer set in the
# same call. Build with build.sh; carry ["dist/s16b.tar.xz"].
set -u
exec > >(tee -a $OUT/call2.log) 2>&1
tar -xJf dist/s16b.tar.xz
D=s16b
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
mkdir -p $OUT/c2
BIN=$D OUT=$OUT/c2 AB_CONFIGS="partial stride" bash scripts/device_run.sh ab
tar -C $OUT -czf $OUT/ab-step.tar.gz c2
pick=none
for name in exp-pf1fp8 exp-pf1 exp-pf2; do
  if grep -q "^$name fused 0 pair 0$" $OUT/c2/ab-decisions.txt 2>/dev/null; then pick=$name; break; fi
done
echo "$pick" | tee $OUT/c2/adopted.txt
[[ $pick == none ]] || BIN=$D/$pick OUT=$OUT/c2/validation bash scripts/device_run.sh matrix sanitize
tar -C $OUT -czf $OUT/c2.tar.gz c2 && rm -rf $OUT/c2 $OUT/ab-step.tar.gz
exit 0
