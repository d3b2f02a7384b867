#!/usr/bin/env bash
# Session 16, after call1/call2: the PDL table with the per-case floor (producer_floor_us: what a
# kernel that only waits for the producer adds; first measured here), then never-slower shards
# NS_FIRST..NS_LAST of 8 (default 1-4, ~280 s), both with the binary HEAD will be: NSBIN (default
# the base, s16a; set it to s16a/exp-NAME or s16b/exp-NAME when a call adopted that build, or to
# a folder of a build holding both adopted changes).
# carry ["dist/s16a.tar.xz", "dist/s16b.tar.xz"] (only what NSBIN needs).
set -u
exec > >(tee -a $OUT/call3.log) 2>&1
for t in dist/s16a.tar.xz dist/s16b.tar.xz; do [[ -f $t ]] && tar -xJf $t; done
chmod +x s16*/rope-kv-bench s16*/*/rope-kv-bench 2>/dev/null
NSBIN=${NSBIN:-s16a}
echo "never-slower binary: $NSBIN"
BIN=$NSBIN OUT=$OUT/pdl bash scripts/device_run.sh pdl
tar -C $OUT -czf $OUT/pdl.tar.gz pdl && rm -rf $OUT/pdl
for k in $(seq ${NS_FIRST:-1} ${NS_LAST:-4}); do
  BIN=$NSBIN NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower
  tar -C $OUT -czf $OUT/ns.tar.gz ns  # after every shard: a cut call keeps the finished ones
done
rm -rf $OUT/ns
exit 0
