#!/usr/bin/env bash
# Session 17, call 2 (carry ["dist/s17.tar.xz"]; ~480 s): round 1 (results/NOTES.md, "Session 17
# round 1"): base, gjsplit, mlaflat, splitflat, base again on kernel-ab-splitrot and
# kernel-ab-mla, each build judged on its own subset at 3 %; the adopted step confirms a
# "confirm first" build in the same call and validates the first adopted (splitflat before
# gjsplit: it holds gjsplit's change and more; then mlaflat). scripts/ab_call.sh packs the A/B's
# files as soon as it ends. If both a split build and mlaflat pass, the other is validated in the
# next call (ADOPTED_STEPS on its folder) before the two land together.
set -u
exec > >(tee -a $OUT/call2.log) 2>&1
AB_CONFIGS="splitrot mla" AB_PREFER="exp-splitflat exp-gjsplit exp-mlaflat" \
  bash scripts/ab_call.sh dist/s17.tar.xz s17 c2
exit 0
