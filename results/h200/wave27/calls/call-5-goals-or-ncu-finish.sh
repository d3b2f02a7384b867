#!/usr/bin/env bash
# Session 37, call 5 (carry ["dist/s52.tar.xz", "dist/s54.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: Nsight Compute of three of the H100 survey's misses at 65k tokens (the fused
#   kernel, the pair's rope and cache_write; 3 launches each, caches flushed), to see whether
#   the SMs idle at the finish of the one-wave strided grid (sm__cycles_active.avg against
#   gpc__cycles_elapsed.max), as session 20 found on the H200. $OUT/ncu/.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
tar -xJf dist/s54.tar.xz && chmod +x s54/rope-kv-bench
mkdir -p $OUT/ncu
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv >$OUT/ncu/nvidia-smi.csv
for c in 'bf16|auto|28x4x128|neox|nhd|N=65536' 'bf16|auto|28x4x128|neox|nhd|N=65536|rot=64' \
  'bf16|auto|16x2x256|gptj|nhd|N=65536|rot=128'; do
  for v in fused rope cache_write; do
    ((SECONDS < 540)) || break 2
    timeout -k 10 120 bash scripts/ncu.sh "$c" $v 3 $OUT/ncu/raw s54/rope-kv-bench >>$OUT/ncu/log.txt 2>&1
    echo "$v $c: exit $? ($SECONDS s)" | tee -a $OUT/ncu/log.txt
  done
done
cat $OUT/ncu/raw/*.txt >$OUT/ncu/ncu-summary.txt 2>/dev/null
gzip -9 $OUT/ncu/ncu-summary.txt
rm -rf $OUT/ncu/raw
exit 0
