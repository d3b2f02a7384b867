#!/usr/bin/env bash
# Nsight Compute profile of one variant of one case, plus a text summary: key metrics (duration,
# DRAM throughput, achieved occupancy, ...) as CSV, then ncu's details page.
# Usage: scripts/ncu.sh CASE_ID fused|pair|rope|cache_write LAUNCHES OUT_DIR [BINARY]
#   e.g. scripts/ncu.sh 'bf16|auto|32x8x128|neox|nhd|N=2048' fused 3 results/ncu
# Writes OUT_DIR/NAME.ncu-rep, NAME.csv (key metrics, one row a kernel) and NAME.txt (both pages),
# NAME being the variant and case id with every character outside [A-Za-z0-9._-] made '_'; with
# NCU_SOURCE=1 also NAME.source.csv, the source page (SASS and each instruction's samples and
# counters, one page a launch: few launches).
#
# `rope-kv-bench profile` warms up, calls cudaProfilerStart, runs exactly LAUNCHES launches of the
# variant inside an NVTX push/pop range named "variant|case-id", then cudaProfilerStop
# (docs/cli.md, `profile`). So:
#   --profile-from-start off   ncu honours cudaProfilerStart/Stop: the warm-up stays out;
#   --nvtx --nvtx-include 'R/' only kernels inside push/pop range R (the trailing '/' is what marks
#                              a push/pop range; without it ncu looks for a start/end range). Plain
#                              names are matched literally, so '|' and '=' need nothing; ncu's
#                              quantifiers @ , [ ] / * + would need a '\' and are escaped below.
#                              (No 'regex:' prefix: there '|' would mean "or".)
#   --clock-control none       leave the GPU clocks as they are, as the timed runs see them, instead
#                              of ncu's default of locking them to base.
# env: NCU_SECTIONS  sections to collect, space-separated (default: the full set). Fewer sections
#                    mean fewer replays of each launch: the way to sample hundreds of launches.
#      NCU_CACHE_CONTROL  all (default: ncu flushes the caches before each replay, every launch
#                    starts cold) or none (caches as the previous launch left them, as in a graph
#                    replay of back-to-back launches).
#      NCU_SAMPLING_INTERVAL  0-31: warp-state samples every 2^(5+N) cycles (ncu's
#                    --warp-sampling-interval; default ncu's own choice). 0 takes the most samples
#                    per launch: a 2 us kernel then gives enough to rank its instructions.
set -euo pipefail
usage="usage: scripts/ncu.sh CASE_ID fused|pair|rope|cache_write LAUNCHES OUT_DIR [BINARY (default build/rope-kv-bench)]"
if (($# < 4 || $# > 5)); then
  echo "$usage" >&2
  exit 4
fi
case_id=$1 variant=$2 launches=$3 out=$4 bin=${5:-build/rope-kv-bench}
case $variant in
  fused | pair | rope | cache_write) ;;
  *) echo "ncu.sh: '$variant' is not a variant (fused, pair, rope, cache_write)" >&2; exit 4 ;;
esac
[[ -x $bin ]] || { echo "ncu.sh: $bin is not an executable (build it, or pass BINARY)" >&2; exit 4; }

ncu=$(command -v ncu || true)
for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
  [[ -z $ncu && -x $c ]] && ncu=$c
done
[[ -n $ncu ]] || { echo "ncu.sh: ncu (Nsight Compute) not found on PATH, in /usr/local/cuda/bin or /opt/nvidia/nsight-compute" >&2; exit 4; }

# The range carries the canonical id; --case accepts the options in any order, so canonicalize
# (a bad id ends here with the tool's own one-line error).
id=$("$bin" validate --case "$case_id" --dry-run | sed -n 1p)
range="$variant|$id"
filter="$(printf '%s' "$range" | sed 's/[][@,/*+]/\\&/g')/"
name=$(printf '%s' "$range" | tr -c 'A-Za-z0-9._-' '_')
case ${NCU_CACHE_CONTROL:=all} in
  all | none) ;;
  *) echo "ncu.sh: NCU_CACHE_CONTROL '$NCU_CACHE_CONTROL' is not all or none" >&2; exit 4 ;;
esac
collect=(--set full)
if [[ -n ${NCU_SECTIONS:-} ]]; then
  collect=()
  for s in $NCU_SECTIONS; do collect+=(--section "$s"); done
fi
if [[ -n ${NCU_SAMPLING_INTERVAL:-} ]]; then
  [[ $NCU_SAMPLING_INTERVAL =~ ^[0-9]+$ ]] && ((NCU_SAMPLING_INTERVAL <= 31)) ||
    { echo "ncu.sh: NCU_SAMPLING_INTERVAL '$NCU_SAMPLING_INTERVAL' is not 0-31" >&2; exit 4; }
  collect+=(--warp-sampling-interval "$NCU_SAMPLING_INTERVAL")
fi
mkdir -p "$out"

"$ncu" --clock-control none --cache-control "$NCU_CACHE_CONTROL" --profile-from-start off --nvtx \
  --nvtx-include "$filter" "${collect[@]}" -f -o "$out/$name" "$bin" profile --case "$id" --launches "$launches" --variants "$variant"
# ncu exits 0 even when no kernel matched; no report file is the tell.
[[ -f $out/$name.ncu-rep ]] || { echo "ncu.sh: no kernel profiled in NVTX range '$range' (see ncu's output above)" >&2; exit 1; }

# Key metrics, in base units (ns, bytes, %): duration, DRAM and memory throughput as % of peak,
# DRAM bytes, L2 hit rate, achieved occupancy, SM active and elapsed cycles, the launch shape.
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,launch__grid_size,launch__block_size,launch__registers_per_thread
# SM active over elapsed cycles: how evenly the SMs finish (session 20: 89-92 % on one-wave grids).
metrics+=,sm__cycles_active.avg,gpc__cycles_elapsed.max
"$ncu" --import "$out/$name.ncu-rep" --page raw --csv --print-units base --metrics "$metrics" \
  >"$out/$name.csv"
{
  echo "# $range: $launches launches, ncu ${collect[*]} --clock-control none --cache-control $NCU_CACHE_CONTROL ($("$ncu" --version | tail -n1))"
  echo "## key metrics (base units)"
  cat "$out/$name.csv"
  echo
  echo "## details"
  "$ncu" --import "$out/$name.ncu-rep" --page details
} >"$out/$name.txt"
if [[ ${NCU_SOURCE:-0} == 1 ]]; then
  "$ncu" --import "$out/$name.ncu-rep" --page source --print-source sass --csv >"$out/$name.source.csv"
fi
echo "ncu.sh: wrote $out/$name.ncu-rep, $out/$name.csv, $out/$name.txt"
