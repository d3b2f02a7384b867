#!/usr/bin/env bash
# Session 40, call 3, carry ["dist/w33.tar.xz"] (as call 2). Sized for the ~460 s of device time
# left after call 2, so an H200 gets the shorter half of the goals:
# - an H200 (h200-round47-decode-pdl.sh, through scripts/h200_first.sh): round 47's A/B on this
#   card with its H100 rule, the matrix on the build if adopted ($OUT/c34.tar.gz), then the seed
#   and PDL tables of HEAD's build (the decode and PDL goals, $OUT/goals-decode-pdl), no floor
#   line;
# - another card: nothing (this call is for the H200 alone).
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-round47-decode-pdl.sh && exit 0
echo "not an H200: nothing to do"
exit 0
