#!/usr/bin/env bash
# Session 37, call 9 (carry ["dist/s52.tar.xz", "dist/s54.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: the H100 survey's cases with a lower bound below 1.02
#   (never-slower-h100-recheck-cases.txt: its 20 misses and the passes nearest to 1.0) again, on
#   a freshly started machine with the same binary (s54's base, 6cb014f) and never-slower.json's
#   timing, to see which of calls 3-4's verdicts reproduce: $OUT/recheck/recheck.json.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
tar -xJf dist/s54.tar.xz && chmod +x s54/rope-kv-bench
mkdir -p $OUT/recheck
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave27/calls/never-slower-h100-recheck-cases.txt
timeout $((590 - SECONDS)) s54/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=37 --json $OUT/recheck/recheck.json >$OUT/recheck/log.txt 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
