#!/usr/bin/env bash
# Session 14, call 2: round 1 A/B (base 8ae3308, rwgrid = base + row-warp-token-grid.patch, base
# again) on kernel-ab-neoxdecode and kernel-ab-decode, decided here by the rule in results/NOTES.md
# ("Session 14 round 1"); an adopted build is validated at once (full matrix, sanitizer set) and
# timed on the decode and PDL configs. Then never-slower shards 1-3 of 8 with the binary that HEAD
# will be. carry ["dist/s14b.tar.xz"].
set -u
tar -xJf dist/s14b.tar.xz
D=dist-s14b
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
mkdir -p $OUT/c2
BIN=$D OUT=$OUT/c2 AB_CONFIGS="neoxdecode decode" AB_MIN_GAIN=1.5 \
  ADOPTED_STEPS="matrix sanitize decode pdl" bash scripts/device_run.sh ab adopted
NSBIN=$D; [[ $(cat $OUT/c2/adopted.txt 2>/dev/null) == exp-rwgrid ]] && NSBIN=$D/exp-rwgrid
echo "never-slower binary: $NSBIN" | tee $OUT/c2/ns-bin.txt
tar -C $OUT -czf $OUT/c2.tar.gz c2 && rm -rf $OUT/c2
for k in 1 2 3; do BIN=$NSBIN NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower; done
tar -C $OUT -czf $OUT/ns-c2.tar.gz ns && rm -rf $OUT/ns
