#!/usr/bin/env bash
# Session 14, call 3: round 2 A/B (base 8ae3308, noslotwait = base + no-slot-wait.patch, base
# again) on kernel-ab-neoxdecode, -decode and -prefill, decided by the rule in results/NOTES.md
# ("Session 14 round 2"); an adopted build is validated at once (full matrix, sanitizer set) and
# timed on the decode config (device time was short: two failed starts). Then never-slower shards of the base while the
# call has time (only if round 2 is rejected: shards 1-3 ran with the base in call 2).
# carry ["dist/s14c.tar.xz"].
set -u
t0=$(date +%s)
tar -xJf dist/s14c.tar.xz
D=dist-s14c
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
mkdir -p $OUT/c3
BIN=$D OUT=$OUT/c3 AB_CONFIGS="neoxdecode decode prefill" AB_MIN_GAIN=1.5 \
  ADOPTED_STEPS="matrix sanitize decode" bash scripts/device_run.sh ab adopted
adopted=$(cat $OUT/c3/adopted.txt 2>/dev/null)
tar -C $OUT -czf $OUT/c3.tar.gz c3 && rm -rf $OUT/c3
if [[ $adopted == none ]]; then
  for k in 4 5 6 7 8; do
    (($(date +%s) - t0 < 250)) || break
    BIN=$D NS_SHARD=$k NS_SHARDS=8 OUT=$OUT/ns bash scripts/device_run.sh never-slower
  done
  [[ -d $OUT/ns ]] && tar -C $OUT -czf $OUT/ns-c3.tar.gz ns && rm -rf $OUT/ns
fi
exit 0
