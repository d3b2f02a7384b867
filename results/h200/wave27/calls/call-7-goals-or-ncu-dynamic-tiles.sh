#!/usr/bin/env bash
# Session 37, call 7 (carry ["dist/s52.tar.xz", "dist/s56.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: Nsight Compute of round 41's build (dyn) and its base on two 65k launches that
#   dyn left level (28x4x128 neox full rotary, 16x2x256 gpt-j rot = 128), to see whether the
#   counters did make the SMs busy to the end (SM active / elapsed) and what the bytes a second
#   did instead. $OUT/ncu/.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
tar -xJf dist/s56.tar.xz && chmod +x s56/rope-kv-bench s56/exp-dyn/rope-kv-bench
mkdir -p $OUT/ncu
for c in 'bf16|auto|28x4x128|neox|nhd|N=65536' 'bf16|auto|16x2x256|gptj|nhd|N=65536|rot=128'; do
  for b in base exp-dyn; do
    bin=s56/rope-kv-bench
    [[ $b == base ]] || bin=s56/$b/rope-kv-bench
    ((SECONDS < 540)) || break 2
    timeout -k 10 120 bash scripts/ncu.sh "$c" fused 3 $OUT/ncu/raw-$b $bin >>$OUT/ncu/log.txt 2>&1
    echo "$b $c: exit $? ($SECONDS s)" | tee -a $OUT/ncu/log.txt
  done
done
for b in base exp-dyn; do
  cat $OUT/ncu/raw-$b/*.txt >$OUT/ncu/ncu-summary-$b.txt 2>/dev/null && gzip -9 $OUT/ncu/ncu-summary-$b.txt
done
rm -rf $OUT/ncu/raw-*
exit 0
