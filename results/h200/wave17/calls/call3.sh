#!/usr/bin/env bash
# Session 19, call 3 (carry ["dist/s19c.tar.xz"], built by build3.sh; ~90 s start + ~420 s): the
# landed HEAD validated (full matrix, sanitizer), then shards 1-5 of 8 of the never-slower survey on
# it, for a count on one machine. Only shards 1-3 came back (the device tool returns at most 8
# files from $OUT; the rest were left out): call4.sh re-ran the others, packed.
set -u
exec > >(tee -a $OUT/call3.log) 2>&1
tar -xJf dist/s19c.tar.xz && chmod +x s19c/rope-kv-bench
BIN=s19c OUT=$OUT/validate bash scripts/device_run.sh matrix sanitize
for k in 1 2 3 4 5; do
  NS_SHARD=$k BIN=s19c OUT=$OUT/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower
done
exit 0
