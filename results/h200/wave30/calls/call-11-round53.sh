#!/usr/bin/env bash
# Session 42, call 11, carry ["dist/w40.tar.xz"]: s75/ only (round 53:
# `scripts/build_kernel_experiments.sh --dist dist/s75
# phflat=results/h200/experiments/patches/phased-flat-grid.patch`, HEAD's stripped normal build as
# its base):  tar -C dist -cf - s75 | xz -T2 -9 > dist/w40.tar.xz
# The tracked tree and a carry of the experiment and the landing together were over the 64 MiB a
# call, so the landing's checks are call 12 (call-12-round53-landing-checks.sh, carry t76).
# The card decides:
# - an H200: the goals of HEAD (h200-goals-s75.sh), nothing else;
# - another card: round 53's A/B (results/NOTES.md, session 42: its rule).
set -u
ln -sf w40.tar.xz dist/s75.tar.xz
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-s75.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/phased-flat-grid-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s75.tar.xz s75 c75
echo "round 53 done ($SECONDS s)"
exit 0
