#!/usr/bin/env bash
# Session 24, calls 4-5 (carry ["dist/s24c.tar.xz"]): the never-slower survey of HEAD's kernels
# (s24c's base binary, built at 8623f38; kernels/ unchanged since) on one machine, SHARDS="K ..."
# of 8, one after another while the call has time; TAG names the call. $OUT/$TAG.tar.gz, packed
# after every shard.
set -u
tar -xJf dist/s24c.tar.xz && chmod +x s24c/rope-kv-bench
tag=${TAG:-call4}
W=$OUT/$tag
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/$tag.tar.gz.tmp $tag && mv $OUT/$tag.tar.gz.tmp $OUT/$tag.tar.gz; }
for k in ${SHARDS:?SHARDS=\"K ...\"}; do
  ((SECONDS + 100 < 580)) || break
  NS_SHARD=$k NS_SHARDS=8 BIN=s24c OUT=$W/ns STEP_TIMEOUT=110 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a $W/log.txt
  echo "$k" >>$W/shards.txt
  pack
done
exit 0
