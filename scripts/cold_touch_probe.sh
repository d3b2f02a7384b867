#!/usr/bin/env bash
# The cold-vs-ncu TLB test (results/NOTES.md, session 7): does cold mode's extra ~1 us at 2048
# tokens come from page translations the L2 flush evicted? The base build's ncu table at 2048 and
# 16384 tokens (scripts/ncu_vs_tool.sh), then cold mode, three passes each, of the base build, of
# the experiment build (results/h200/experiments/patches/cold-touch-pages.patch: one load per
# 2 MiB page of the case's buffers after the flush) and of its control (RKV_TOUCH_NONE=1: the
# same extra kernel over no pages), each set against the same ncu files.
# Usage: scripts/cold_touch_probe.sh OUT_DIR BASE_BINARY EXP_BINARY
# Writes OUT_DIR/base/ (ncu_vs_tool.sh's files), OUT_DIR/{base,touch,none}.{json,log,md} and
# {base,touch,none}-table.json. Exit 1 when a step failed (see its log), 4 on bad usage.
set -uo pipefail
if (($# != 3)); then
  sed -n '2,10s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
out=$1 base=$2 exp=$3 rc=0
here=$(dirname "$0")
mkdir -p "$out"
NCU_TOKENS="2048 16384" bash "$here/ncu_vs_tool.sh" "$out/base" "$base" >"$out/ncu.log" 2>&1 || rc=1
for v in base touch none; do
  bin=$exp
  [[ $v == base ]] && bin=$base
  flag=()
  [[ $v == none ]] && flag=(RKV_TOUCH_NONE=1)
  env "${flag[@]}" "$bin" bench --dtype bf16 --cache-dtype auto --heads 32x8x128,32x32x128 \
    --style neox --layout nhd --tokens 2048,16384 --mode cold --passes 3 --json "$out/$v.json" \
    >"$out/$v.log" 2>&1 || rc=1
  python3 "$here/ncu_table.py" "$out/$v.json" "$out/base/ncu" "$out/$v.md" "$out/$v-table.json" ||
    rc=1
done
exit $rc
