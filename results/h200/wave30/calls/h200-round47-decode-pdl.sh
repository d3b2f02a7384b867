#!/usr/bin/env bash
# The H200 work of call-3-h200-round47-decode-pdl.sh (run by scripts/h200_first.sh there): round
# 47's A/B with its H100 rule, the matrix on the build if adopted ($OUT/c34.tar.gz), then the
# seed and PDL tables of HEAD's build ($OUT/goals-decode-pdl: the decode and PDL goals).
set -u
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/long-launch-per-sm-cases.txt \
  timeout 200 bash scripts/ab_call.sh dist/s68.tar.xz s68 c34
echo "round 47 on the H200 done ($SECONDS s)"
tar -xJf dist/s70.tar.xz && chmod +x s70/rope-kv-bench
BIN=$(pwd)/s70 OUT=$OUT/goals-decode-pdl timeout $((330 - SECONDS)) bash scripts/device_run.sh info seed pdl
echo "decode and pdl done ($SECONDS s)"
exit 0
