#!/usr/bin/env bash
# Session 19, call 4 (carry ["dist/s19c.tar.xz"]; warm after call 3, 506 s), as run (one command
# line, written out here): call 3 brought back only its first 8 files (the device tool returns at
# most 8 from $OUT), so shards 4-8 of the never-slower survey, the PDL table and
# the validation (full matrix, sanitizer) again, every file packed into one tarball.
set -u
exec > >(tee -a $OUT/call4.log) 2>&1
tar -xJf dist/s19c.tar.xz && chmod +x s19c/rope-kv-bench
W=$(mktemp -d)
for k in 4 5 6 7 8; do
  NS_SHARD=$k BIN=s19c OUT=$W/ns STEP_TIMEOUT=100 bash scripts/device_run.sh never-slower
done
BIN=s19c OUT=$W/pdl bash scripts/device_run.sh pdl
BIN=s19c OUT=$W/validate bash scripts/device_run.sh matrix sanitize
tar -C $W -czf $OUT/call4.tar.gz .
exit 0
