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
AB_CONFIGS="partial stride" AB_PREFER="exp-pf1fp8 exp-pf1 exp-pf2" \
  bash scripts/ab_call.sh dist/s16b.tar.xz s16b c2
