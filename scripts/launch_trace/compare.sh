#!/usr/bin/env bash
# Which kernel, grid and unit count rope_kv_fused launches, for ~60k argument sets, at two
# revisions, compared without a GPU: each revision's kernels/ is built with a fake CUDA runtime
# (fake_cudart.cpp: records every launch, answers occupancy and the SM count from FAKE_* below)
# and driven by trace_driver.cpp; the traces must be identical line for line. For launcher
# refactors that should change no launch (session 19: the routing moved into plan_fused_launch;
# 60372 calls x 10 occupancy settings, no difference).
#   scripts/launch_trace/compare.sh REV_A REV_B
# Settings: occupancy 9 and 16 CTAs a SM for every kernel, and three per-kernel hashes (8-16);
# 132 SMs and 1. Exit 0 identical, 1 a difference (the first lines shown), 4 bad arguments.
set -euo pipefail
(($# == 2)) || { sed -n '2,10s/^# \{0,1\}//p' "$0" >&2; exit 4; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH=/usr/local/cuda/bin:$PATH
for i in 1 2; do
  rev=${!i}
  git -C "$repo" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
    { echo "compare.sh: '$rev' is not a revision" >&2; exit 4; }
  mkdir -p "$work/k$i"
  git -C "$repo" archive "$rev" kernels | tar -x -C "$work/k$i"
  nvcc -DRKV_FUSED_MIN_CTAS=0 -DRKV_STRIDED_MAX_CTAS_PER_SM=0 -O1 -std=c++17 \
    --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr -cudart none \
    -I"$work/k$i/kernels" "$work/k$i"/kernels/*.cu "$work/k$i"/kernels/*.cpp \
    "$here/trace_driver.cpp" "$here/fake_cudart.cpp" -o "$work/trace$i" &
done
wait
for setting in "9 0 132" "9 0 1" "16 0 132" "16 0 1" "hash 1 132" "hash 1 1" "hash 2 132" \
  "hash 2 1" "hash 3 132" "hash 3 1"; do
  read -r occ seed sms <<<"$setting"
  for i in 1 2; do
    FAKE_OCC=$occ FAKE_SEED=$seed FAKE_SMS=$sms "$work/trace$i" >"$work/t$i.txt" 2>/dev/null
  done
  if ! diff -q "$work/t1.txt" "$work/t2.txt" >/dev/null; then
    echo "occupancy $occ (seed $seed), $sms SMs: the launches differ"
    diff "$work/t1.txt" "$work/t2.txt" | head -n 10 || true
    exit 1
  fi
  echo "occupancy $occ (seed $seed), $sms SMs: $(wc -l <"$work/t1.txt") calls, identical"
done
