#!/usr/bin/env bash
# Session 38, call 5 (carry ["dist/s63.tar.xz"]: HEAD's rope-kv-bench and rkv_tests, stripped, as
# call 4's header says, in s63). The card decides:
# - an H200: the goals of this build ($OUT/goals.tar.gz), nothing else;
# - another card: the GPU tests ($OUT/tests: the turning route's validation cases, each checked
#   to take strided_rotating), then Nsight Compute of the fused kernel on 16x2x256 gpt-j rot = 128
#   at 65k, now strided_rotating ($OUT/ncu: SMs active against elapsed, to set beside call 1's
#   0.90 on the plain loop), and 16x4x128 rot = 64 at 65k.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
tar -xJf dist/s63.tar.xz || { echo "cannot unpack dist/s63.tar.xz"; exit 4; }
chmod +x s63/rkv_tests s63/rope-kv-bench
if [[ $card == *H200* ]]; then
  GOALS_TARBALL=dist/s63.tar.xz GOALS_DIR=s63 bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
  exit 0
fi
BIN=$(pwd)/s63 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests
cases='bf16|auto|16x2x256|gptj|nhd|N=65536|rot=128;bf16|auto|16x4x128|gptj|nhd|N=65536|rot=64'
NCU_CASES=$cases BIN=$(pwd)/s63 OUT=$OUT/ncu STEP_TIMEOUT=240 bash scripts/device_run.sh ncu
echo "done ($SECONDS s)"
exit 0
