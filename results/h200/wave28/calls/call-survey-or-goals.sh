#!/usr/bin/env bash
# Session 38, calls 6-7 (carry ["dist/s61.tar.xz", "dist/s63.tar.xz"]). The card decides
# (scripts/h200_first.sh):
# - an H200: call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's A/B);
# - another card: the never-slower survey of HEAD's kernels (s63, 6a11894: strided_rotating
#   landed), SHARDS="K ..." of 8, one after another while the call has time, as
#   ../../wave27/calls/call-survey-or-goals.sh ran them. TAG names the call; $OUT/$TAG.tar.gz is
#   packed after every shard.
set -u
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
tar -xJf dist/s63.tar.xz && chmod +x s63/rope-kv-bench
tag=${TAG:-call6}
W=$OUT/$tag
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/$tag.tar.gz.tmp $tag && mv $OUT/$tag.tar.gz.tmp $OUT/$tag.tar.gz; }
for k in ${SHARDS:?SHARDS=\"K ...\"}; do
  ((SECONDS + 100 < 580)) || break
  NS_SHARD=$k NS_SHARDS=8 BIN=s63 OUT=$W/ns STEP_TIMEOUT=110 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a $W/log.txt
  echo "$k" >>$W/shards.txt
  pack
done
exit 0
