#!/usr/bin/env bash
# Session 40, call 3, carry ["dist/w33.tar.xz"] (as call 2). Sized for the ~460 s of device time
# left after call 2, so an H200 gets the shorter half of the goals:
# - an H200: round 47's A/B on this card with its H100 rule, the matrix on the build if adopted
#   ($OUT/c34.tar.gz), then the seed table and the PDL table of HEAD's build (the decode and PDL
#   goals; device_run.sh info seed pdl into $OUT/goals-decode-pdl), no floor line;
# - another card: nothing (this call is for the H200 alone).
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "not an H200: nothing to do"; exit 0; }
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/long-launch-per-sm-cases.txt \
  timeout 200 bash scripts/ab_call.sh dist/s68.tar.xz s68 c34
echo "round 47 on the H200 done ($SECONDS s)"
tar -xJf dist/s70.tar.xz && chmod +x s70/rope-kv-bench
BIN=$(pwd)/s70 OUT=$OUT/goals-decode-pdl timeout $((330 - SECONDS)) bash scripts/device_run.sh info seed pdl
echo "decode and pdl done ($SECONDS s)"
exit 0
