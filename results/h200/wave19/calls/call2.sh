#!/usr/bin/env bash
# Session 21, call 2 (carry ["dist/s21a.tar.xz"]): shards 5-8 of 8 of the never-slower survey on
# the build call 1 picked (BIN=s21a or s21a/exp-roles100, from call1/adopted.txt), packed in
# $OUT/call2.tar.gz after every shard.
set -u
tar -xJf dist/s21a.tar.xz && chmod +x s21a/rope-kv-bench s21a/exp-roles100/rope-kv-bench
bin=${BIN:?BIN=s21a or s21a/exp-roles100}
W=$OUT/call2
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/call2.tar.gz.tmp call2 && mv $OUT/call2.tar.gz.tmp $OUT/call2.tar.gz; }
echo "$bin" >$W/build.txt
for k in 5 6 7 8; do
  NS_SHARD=$k BIN=$bin OUT=$W/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower >>$W/log.txt 2>&1
  echo "shard $k: exit $?" | tee -a $W/log.txt
  pack
done
exit 0
