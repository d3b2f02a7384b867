#!/usr/bin/env bash
# Session 11, call 4: the remaining never-slower shards of the binary call 3 chose (argument 1:
# that binary's folder; argument 2: first shard).
set -u
chmod +x dist-c3/rope-kv-bench dist-c3/*/rope-kv-bench
for k in $(seq "$2" 8); do BIN=$1 NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/c4/ns bash scripts/device_run.sh never-slower; done
