#!/usr/bin/env bash
# Session 41, call 4, carry ["dist/w34.tar.xz"]: s68/ and s70/ as call-2-goals-or-misses.sh's
# header says; s71/ (round 49: scripts/build_kernel_experiments.sh --dist dist/s71
# carry=results/h200/experiments/patches/strided-carried-token.patch, the base copied from s70),
#   tar -C dist -cf - s68 s70 s71 | xz -T2 -9 > dist/w34.tar.xz
# The card decides:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals of HEAD, then
#   round 47's A/B on this card, nothing else;
# - another card: round 49 (results/NOTES.md, session 41: its rule; the matrix and the sanitizer
#   on the build if adopted: $OUT/c71.tar.gz).
set -u
for d in s68 s70 s71; do ln -sf w34.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/strided-carried-token-cases.txt \
  timeout $((580 - SECONDS)) bash scripts/ab_call.sh dist/s71.tar.xz s71 c71
echo "round 49 done ($SECONDS s)"
exit 0
