#!/usr/bin/env bash
# Session 32's last call: round 26b (call-mla-auto-flat-role-warps.sh, with its adopted step),
# then round 27's A/B alone (call-pair-cache-write.sh's rule, no adopted step: the budget left
# does not hold one, and a blank ADOPTED_STEPS runs no step; an adopted build gets its matrix and
# sanitizer set in a later call).
# Carry ["dist/s32d.tar.xz", "dist/s32e.tar.xz"]; s32e holds s32d's base (the same kernels:
# c17f9a2 and HEAD differ only in results/) and exp-pcw2.
set -u
bash results/h200/wave25/calls/call-mla-auto-flat-role-warps.sh
ADOPTED_STEPS=" " AB_JUDGE=pair AB_ROUNDS=2 AB_MIN_GAIN=1 \
  AB_CASES=results/h200/wave25/calls/pair-cache-write-cases.txt \
  bash scripts/ab_call.sh dist/s32e.tar.xz s32e c12
echo "call done ($SECONDS s)"
exit 0
