#!/usr/bin/env bash
# Session 17, call 4 (warm after call 3; carry ["dist/s17h.tar.xz"]; 284 s): the never-slower
# survey's shards 5-8 on the landed build (call 3 ran 1-4), packed after every shard. Sent as
# one command line; kept here as it ran.
set -u; tar -xJf dist/s17h.tar.xz && chmod +x s17h/*; for k in 5 6 7 8; do BIN=s17h NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower >>$OUT/call4.log 2>&1; tar -C $OUT -czf $OUT/ns.tar.gz ns; done; rm -rf $OUT/ns; tail -3 $OUT/call4.log
