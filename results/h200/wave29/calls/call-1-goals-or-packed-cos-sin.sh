#!/usr/bin/env bash
# Session 39, call 1 (carry ["dist/w29.tar.xz"]: s61/, s63/rope-kv-bench, s64/ and s65/ in one
# archive, since the archives apart pass the carry limit and xz stores their common base once;
# s61 and s63 as the wave28 call headers say, s64 round 45's exploratory build, s65 round 45b's:
# scripts/build_kernel_experiments.sh --dist dist/s65
#   pcsd=results/h200/experiments/patches/neox-packed-cos-sin-dispatched.patch, base s63's).
# The card decides:
# - an H200: wave28's call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's
#   A/B on the H200), nothing else;
# - another card: round 45 as prepared in session 38 (wave28/calls/call-8-packed-cos-sin.sh:
#   $OUT/c28.tar.gz), then round 45b (results/NOTES.md, session 39: the rule fixed there before
#   the run; matrix and sanitizer on the build if adopted: $OUT/c29.tar.gz).
set -u
for d in s61 s63 s64 s65; do ln -sf w29.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
bash results/h200/wave28/calls/call-8-packed-cos-sin.sh
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/neox-packed-cos-sin-dispatched-cases.txt \
  bash scripts/ab_call.sh dist/s65.tar.xz s65 c29
echo "round 45b done ($SECONDS s)"
exit 0
