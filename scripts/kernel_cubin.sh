#!/usr/bin/env bash
# The fused kernels' translation unit (kernels/rope_kv_fused.cu) of a source tree as a cubin, with
# the device code options of the Release build (-O3, sm_90, the launch-bound knobs at their
# defaults unless -DVAR=VALUE says otherwise), for scripts/cubin_diff.py:
#   scripts/kernel_cubin.sh TREE OUT.cubin [-DVAR=VALUE ...]
# e.g. a patch's kernels against HEAD's, in a worktree with the patch applied:
#   scripts/kernel_cubin.sh . /tmp/head.cubin
#   scripts/kernel_cubin.sh /tmp/wt /tmp/exp.cubin
#   scripts/cubin_diff.py /tmp/head.cubin /tmp/exp.cubin
# About 75 s on two cores. Exit 4 with one line on a bad argument; nvcc's exit when it fails.
set -euo pipefail
usage() {
  sed -n '2,9s/^# \{0,1\}//p' "$0" >&2
  exit 4
}
(($# >= 2)) || usage
tree=$1 out=$2
shift 2
[[ -f $tree/kernels/rope_kv_fused.cu ]] ||
  { echo "kernel_cubin: '$tree' has no kernels/rope_kv_fused.cu" >&2; exit 4; }
[[ -d $(dirname "$out") ]] || { echo "kernel_cubin: no folder for '$out'" >&2; exit 4; }
for d in "$@"; do
  [[ $d =~ ^-D[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.-]*$ ]] ||
    { echo "kernel_cubin: '$d' is not -DVAR=VALUE" >&2; exit 4; }
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x $nvcc ]] || { echo "kernel_cubin: no nvcc (set NVCC or put CUDA's bin on PATH)" >&2; exit 4; }
# The CMake build's defaults for the two knobs (kernels/CMakeLists.txt); later -D's override them.
"$nvcc" -DRKV_FUSED_MIN_CTAS=0 -DRKV_STRIDED_MAX_CTAS_PER_SM=0 "$@" -I"$tree/kernels" -O3 -DNDEBUG \
  -arch=sm_90 -cubin --expt-relaxed-constexpr -std=c++17 -x cu "$tree/kernels/rope_kv_fused.cu" \
  -o "$out"
