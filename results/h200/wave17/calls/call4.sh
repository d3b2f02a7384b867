#!/usr/bin/env bash
# Session 19, call 4 (carry ["dist/s19c.tar.xz"]; warm after call 3, ~260 s): shards 6-8 of the
# never-slower survey on the landed HEAD, then the PDL table (configs/pdl.json) on it.
set -u
exec > >(tee -a $OUT/call4.log) 2>&1
tar -xJf dist/s19c.tar.xz && chmod +x s19c/rope-kv-bench
for k in 6 7 8; do
  NS_SHARD=$k BIN=s19c OUT=$OUT/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower
done
BIN=s19c OUT=$OUT/pdl bash scripts/device_run.sh pdl
exit 0
