#!/usr/bin/env bash
# Session 14, call 3: round 2 A/B (base 8ae3308, noslotwait = base + no-slot-wait.patch) on
# kernel-ab-neoxdecode, -decode and -prefill, decided by the rule in results/NOTES.md ("Session 14
# round 2"). Cut to the device time left after four failed machine starts: the base runs once
# (no base-again) and nothing follows, so a build the rule adopts is not validated in this session
# and does not land. carry ["dist/s14c.tar.xz"].
set -u
tar -xJf dist/s14c.tar.xz
D=dist-s14c
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
mkdir -p $OUT/c3
BIN=$D OUT=$OUT/c3 AB_CONFIGS="neoxdecode decode prefill" AB_MIN_GAIN=1.5 AB_BASE_AGAIN=0 \
  bash scripts/device_run.sh ab
tar -C $OUT -czf $OUT/c3.tar.gz c3 && rm -rf $OUT/c3
exit 0
