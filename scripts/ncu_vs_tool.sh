#!/usr/bin/env bash
# The fused kernel timed by rope-kv-bench (cold and warm mode) and by Nsight Compute
# (gpu__time_duration.sum of each launch) on the same cases, side by side: does `cold` measure
# the GPU, and how far is `warm` from ncu's isolated launches?
# Usage: scripts/ncu_vs_tool.sh OUT_DIR [BINARY (default build/rope-kv-bench)]
#   env NCU_HEADS   (default "32x8x128 32x32x128": bf16 GQA and MHA, auto cache, neox, nhd)
#       NCU_TOKENS  (default "1 128 2048 16384 65536")
#       NCU_LAUNCHES (default 30 launches profiled per case and mode: with 10, MHA at 2048
#                    tokens read +3.8 % against the tool, with 30 +2.1 %; results/h200/wave3/)
# Writes OUT_DIR/ncu-vs-tool.md and .json (the table, scripts/ncu_table.py), tool-cold-warm.json
# (the bench report) and ncu/ (ncu's CSV and log per case and mode).
#
# ncu runs `rope-kv-bench profile`, which warms up, calls cudaProfilerStart and launches the
# variant NCU_LAUNCHES times inside the NVTX push/pop range "fused|<case id>" (scripts/ncu.sh says
# how the filter is escaped). cold: --cache-control all (ncu flushes every cache before each
# launch); warm: --cache-control none (each launch finds what the one before it left in L2).
# --clock-control none in both: the clocks as the tool's runs see them, not locked to base.
set -euo pipefail
if (($# < 1 || $# > 2)); then
  sed -n '5,11s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
out=$1 bin=${2:-build/rope-kv-bench}
[[ -x $bin ]] || { echo "ncu_vs_tool.sh: $bin is not an executable" >&2; exit 4; }
ncu=$(command -v ncu || true)
for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
  [[ -z $ncu && -x $c ]] && ncu=$c
done
[[ -n $ncu ]] || { echo "ncu_vs_tool.sh: ncu not found on PATH or in /usr/local/cuda/bin" >&2; exit 4; }
heads=${NCU_HEADS:-32x8x128 32x32x128}
tokens=${NCU_TOKENS:-1 128 2048 16384 65536}
launches=${NCU_LAUNCHES:-30}
mkdir -p "$out/ncu"

rc=0
"$bin" bench --dtype bf16 --cache-dtype auto --heads "${heads// /,}" --style neox --layout nhd \
  --tokens "${tokens// /,}" --mode cold,warm --json "$out/tool-cold-warm.json" || rc=1

for h in $heads; do
  for n in $tokens; do
    id=$("$bin" validate --case "bf16|auto|$h|neox|nhd|N=$n" --dry-run | sed -n 1p)
    filter="$(printf 'fused|%s' "$id" | sed 's/[][@,/*+]/\\&/g')/"
    for mode in cold warm; do
      cache=all
      [[ $mode == warm ]] && cache=none
      base="$out/ncu/ncu-$mode-$h-N$n"
      "$ncu" --cache-control "$cache" --clock-control none --profile-from-start off --nvtx \
        --nvtx-include "$filter" --metrics gpu__time_duration.sum --csv --print-units base \
        "$bin" profile --case "$id" --launches "$launches" --variants fused >"$base.csv" \
        2>"$base.log" || { echo "ncu_vs_tool.sh: ncu failed on $mode $id (see $base.log)" >&2; rc=1; }
    done
  done
done
python3 "$(dirname "$0")/ncu_table.py" "$out/tool-cold-warm.json" "$out/ncu" \
  "$out/ncu-vs-tool.md" "$out/ncu-vs-tool.json" || rc=1
exit $rc
