#!/usr/bin/env bash
# Session 17, call 3 (carry ["dist/s17h.tar.xz"], built by build2.sh; ~85 s start + ~500 s): the
# landed kernel (rolewarps and splitflat): full matrix and compute-sanitizer, the PDL table with
# the copy floor, the producer GPU tests (the copy floor's consumer among them), then the
# never-slower survey's shards NS_FIRST..NS_LAST (default 1-4; call 4 runs 5-8), each packed as
# it ends so that a cut call keeps the finished ones.
set -u
exec > >(tee -a $OUT/call3.log) 2>&1
tar -xJf dist/s17h.tar.xz && chmod +x s17h/*
BIN=s17h OUT=$OUT/v bash scripts/device_run.sh info matrix sanitize pdl
GTEST_FILTER='*GpuProducer*' BIN=s17h OUT=$OUT/v/tests bash scripts/device_run.sh tests
tar -C $OUT -czf $OUT/v.tar.gz v && rm -rf $OUT/v
for k in $(seq ${NS_FIRST:-1} ${NS_LAST:-4}); do
  BIN=s17h NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower
  tar -C $OUT -czf $OUT/ns.tar.gz ns
done
rm -rf $OUT/ns
exit 0
