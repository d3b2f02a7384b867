#!/usr/bin/env bash
# Session 22, calls 2-3 (carry ["dist/s22a.tar.xz"]): never-slower shards on the build call 1
# picked (BIN, from call1/adopted.txt), SHARDS="K ..." (those call 1 did not reach), one after
# another while the call has time; TAG names the call. $OUT/$TAG.tar.gz, packed after every shard.
set -u
tar -xJf dist/s22a.tar.xz && chmod +x s22a/rope-kv-bench s22a/exp-*/rope-kv-bench
bin=${BIN:?BIN=the build call 1 picked} tag=${TAG:-call2}
W=$OUT/$tag
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/$tag.tar.gz.tmp $tag && mv $OUT/$tag.tar.gz.tmp $OUT/$tag.tar.gz; }
echo "$bin" >$W/build.txt
for k in ${SHARDS:?SHARDS=\"K ...\"}; do
  ((SECONDS + 100 < 570)) || break
  NS_SHARD=$k BIN=$bin OUT=$W/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a $W/log.txt
  echo "$k" >>$W/shards.txt
  pack
done
exit 0
