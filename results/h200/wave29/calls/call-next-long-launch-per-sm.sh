#!/usr/bin/env bash
# Prepared in session 39 for session 40 (carry ["dist/w30.tar.xz"]: s61/, s63/rope-kv-bench and
# s68/ in one archive, `tar -C dist -cf - s61 s63/rope-kv-bench s68 | xz -T2 -9 > dist/w30.tar.xz`;
# s61 and s63 as the wave28 call headers say, s68 round 47's build:
# scripts/build_kernel_experiments.sh --dist dist/s68
#   lps=results/h200/experiments/patches/long-launch-per-sm.patch, the base copied from s63).
# The card decides:
# - an H200: wave28's call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's
#   A/B on the H200), nothing else;
# - another card: round 47 (results/NOTES.md, session 39: the rule fixed there; the matrix and
#   the sanitizer on the build if adopted: $OUT/c31.tar.gz).
set -u
for d in s61 s63 s68; do ln -sf w30.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/long-launch-per-sm-cases.txt \
  bash scripts/ab_call.sh dist/s68.tar.xz s68 c31
echo "round 47 done ($SECONDS s)"
exit 0
