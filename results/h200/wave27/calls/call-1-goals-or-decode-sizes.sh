#!/usr/bin/env bash
# Session 37, call 1 (carry ["dist/s50.tar.xz", "dist/s54.tar.xz"]: s50 built at 5fe7530, whose
# kernels are HEAD's, as ../../wave26/calls/call-gpu-tests-38-then-h200-goals.sh says; s54 at
# 6cb014f as ../../wave26/calls/call-token-warp-at-decode-sizes.sh says). The card decides:
# - an H200: the goals of HEAD's kernels (../../wave26/calls/call-h200-goals-5fe7530.sh);
# - another card: round 39 (that script's rule, unchanged), then the never-slower survey's 42
#   cold cases whose lower bound was below 1.05 on the H200 in wave 22
#   (never-slower-near-misses.txt, configs/never-slower.json's timing) with HEAD's binary, as a
#   map of this card: $OUT/near-misses/near-misses.json.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-5fe7530.sh
  exit 0
fi
bash results/h200/wave26/calls/call-token-warp-at-decode-sizes.sh
((SECONDS < 480)) || { echo "no time left for the near misses"; exit 0; }
mkdir -p $OUT/near-misses
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave27/calls/never-slower-near-misses.txt
timeout $((590 - SECONDS)) s54/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=37 --json $OUT/near-misses/near-misses.json >$OUT/near-misses/log.txt 2>&1
echo "near misses: exit $? ($SECONDS s)"
exit 0
