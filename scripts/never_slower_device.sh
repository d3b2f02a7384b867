#!/usr/bin/env bash
# One shard of configs/never-slower.json on the GPU box (the whole sweep does not fit one 10-minute
# device call): writes $OUT/never-slower-shard-K-of-N.json and $OUT/never-slower-shard-K-of-N.log.
# Usage: scripts/never_slower_device.sh OUT BIN K N
#   OUT  folder for the report and the log (created)
#   BIN  folder holding the rope-kv-bench binary (e.g. dist or build)
#   K N  the shard: bench --shard K/N runs the planned cases whose 0-based index i has i % N == K-1
# env: STEP_TIMEOUT (s, default 570): bench gets SIGINT then, and writes what it measured, marked
#      incomplete (merge then says so). Exit: bench's (0 all validated, 2 a mismatch, 130
#      interrupted), or 4 on bad arguments.
# Afterwards, on any machine: rope-kv-bench merge --json never-slower.json OUT/never-slower-shard-*
# and scripts/check_never_slower.py never-slower.json.
set -uo pipefail
if (($# != 4)); then
  sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
out=$1 bin=$2 k=$3 n=$4
cd "$(dirname "$0")/.." || exit 4
if [[ ! -x $bin/rope-kv-bench ]]; then
  echo "never_slower_device.sh: $bin/rope-kv-bench: not an executable" >&2
  exit 4
fi
mkdir -p "$out" || exit 4
name=never-slower-shard-$k-of-$n
timeout --signal=INT --kill-after=20 "${STEP_TIMEOUT:-570}" \
  "$bin/rope-kv-bench" bench --config configs/never-slower.json --shard "$k/$n" \
  --json "$out/$name.json" >"$out/$name.log" 2>&1
rc=$?
tail -n 3 "$out/$name.log"
echo "shard $k/$n: exit $rc, $out/$name.json"
exit "$rc"
