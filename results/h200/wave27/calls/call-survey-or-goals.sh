#!/usr/bin/env bash
# Session 37, calls 3-4 (carry ["dist/s52.tar.xz", "dist/s54.tar.xz"]). The card decides:
# - an H200: the goals of HEAD's kernels, then round 32 rebased
#   (../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh, unchanged);
# - another card: the never-slower survey of HEAD's kernels (s54's base binary, 6cb014f),
#   SHARDS="K ..." of 8, one after another while the call has time, as ../../wave22/calls/survey.sh
#   ran them on an H200. TAG names the call; $OUT/$TAG.tar.gz is packed after every shard.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  bash results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh
  exit 0
fi
tar -xJf dist/s54.tar.xz && chmod +x s54/rope-kv-bench
tag=${TAG:-call3}
W=$OUT/$tag
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/$tag.tar.gz.tmp $tag && mv $OUT/$tag.tar.gz.tmp $OUT/$tag.tar.gz; }
for k in ${SHARDS:?SHARDS=\"K ...\"}; do
  ((SECONDS + 100 < 580)) || break
  NS_SHARD=$k NS_SHARDS=8 BIN=s54 OUT=$W/ns STEP_TIMEOUT=110 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a $W/log.txt
  echo "$k" >>$W/shards.txt
  pack
done
exit 0
