#!/usr/bin/env bash
# Nsight Systems timeline of one case: exactly LAUNCHES launches of each variant, then nsys stats
# (kernel and NVTX range summaries) as text.
# Usage: scripts/nsys.sh CASE_ID VARIANTS LAUNCHES OUT_DIR [BINARY]
#   e.g. scripts/nsys.sh 'bf16|auto|32x8x128|neox|nhd|N=128' fused,pair 20 results/nsys
# Writes OUT_DIR/NAME.nsys-rep and NAME-stats.txt (NAME: the case id with every character outside
# [A-Za-z0-9._-] made '_').
#
# --capture-range=cudaProfilerApi: `rope-kv-bench profile` warms up first, then wraps exactly the
# requested launches in cudaProfilerStart/Stop, each variant in an NVTX range "variant|case-id",
# so the capture holds those launches and nothing of start-up, allocation or input generation.
set -euo pipefail
usage="usage: scripts/nsys.sh CASE_ID VARIANTS(fused,pair,rope,cache_write) LAUNCHES OUT_DIR [BINARY (default build/rope-kv-bench)]"
if (($# < 4 || $# > 5)); then
  echo "$usage" >&2
  exit 4
fi
case_id=$1 variants=$2 launches=$3 out=$4 bin=${5:-build/rope-kv-bench}
[[ -x $bin ]] || { echo "nsys.sh: $bin is not an executable (build it, or pass BINARY)" >&2; exit 4; }

# Not the nsys inside Nsight Compute's target folder: on our H200 box it writes a .qdstrm but
# cannot turn it into a report.
nsys=$(command -v nsys || true)
for c in /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys; do
  [[ -z $nsys && -x $c ]] && nsys=$c
done
[[ -n $nsys ]] || { echo "nsys.sh: nsys (Nsight Systems) not found on PATH, in /usr/local/cuda/bin or /opt/nvidia/nsight-systems; install Nsight Systems (ncu.sh works without it)" >&2; exit 4; }

id=$("$bin" validate --case "$case_id" --dry-run | sed -n 1p)  # canonical id, as the ranges use
name=$(printf '%s' "$id" | tr -c 'A-Za-z0-9._-' '_')
mkdir -p "$out"

"$nsys" profile --capture-range=cudaProfilerApi --capture-range-end=stop --trace=cuda,nvtx \
  --force-overwrite=true -o "$out/$name" \
  "$bin" profile --case "$id" --launches "$launches" --variants "$variants"
[[ -f $out/$name.nsys-rep ]] || { echo "nsys.sh: nsys wrote no $out/$name.nsys-rep (see its output above)" >&2; exit 1; }
"$nsys" stats --report cuda_gpu_kern_sum --report nvtx_sum "$out/$name.nsys-rep" \
  >"$out/$name-stats.txt"
echo "nsys.sh: wrote $out/$name.nsys-rep, $out/$name-stats.txt"
