#!/usr/bin/env bash
# Which kernel, grid and unit count rope_kv_fused launches, for ~60k argument sets, at two
# revisions, compared without a GPU: each revision's kernels/ is built with a fake CUDA runtime
# (fake_cudart.cpp: records every launch, answers occupancy and the SM count from FAKE_* below)
# and driven by trace_driver.cpp. For launcher refactors that should change no launch (session 19:
# the routing moved into plan_fused_launch; 60372 calls x 10 occupancy settings, no difference),
# and for routing rounds, whose moved launches DIFF_FILE lists in full (session 55: round 66).
#   scripts/launch_trace/compare.sh REV_A REV_B [DIFF_FILE]
# Settings: occupancy 9 and 16 CTAs a SM for every kernel, and three per-kernel hashes (8-16);
# 132 SMs and 1. One line a setting: its calls and how many launches differ. DIFF_FILE: each
# differing call as "< A's line" and "> B's line" under its setting's header. The same revision
# twice is built once. Exit 0 identical, 1 a difference, 2 a trace that did not run to its end,
# 4 bad arguments.
set -euo pipefail
(($# == 2 || $# == 3)) || { sed -n '2,13s/^# \{0,1\}//p' "$0" >&2; exit 4; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
diff_file=${3:-}
if [[ -n $diff_file ]]; then
  [[ -d $(dirname "$diff_file") ]] ||
    { echo "compare.sh: no folder for '$diff_file'" >&2; exit 4; }
  : >"$diff_file" || { echo "compare.sh: cannot write '$diff_file'" >&2; exit 4; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH=/usr/local/cuda/bin:$PATH
commits=()
for i in 1 2; do
  rev=${!i}
  commits+=("$(git -C "$repo" rev-parse --verify -q "$rev^{commit}")") ||
    { echo "compare.sh: '$rev' is not a revision" >&2; exit 4; }
done
builds=(1 2)
[[ ${commits[0]} == "${commits[1]}" ]] && builds=(1)
for i in "${builds[@]}"; do
  mkdir -p "$work/k$i"
  git -C "$repo" archive "${commits[i - 1]}" kernels | tar -x -C "$work/k$i"
  nvcc -DRKV_FUSED_MIN_CTAS=0 -DRKV_STRIDED_MAX_CTAS_PER_SM=0 -O1 -std=c++17 \
    --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr -cudart none \
    -I"$work/k$i/kernels" "$work/k$i"/kernels/*.cu "$work/k$i"/kernels/*.cpp \
    "$here/trace_driver.cpp" "$here/fake_cudart.cpp" -o "$work/trace$i" &
done
wait
[[ -x $work/trace2 ]] || cp "$work/trace1" "$work/trace2"
moved=0
for setting in "9 0 132" "9 0 1" "16 0 132" "16 0 1" "hash 1 132" "hash 1 1" "hash 2 132" \
  "hash 2 1" "hash 3 132" "hash 3 1"; do
  read -r occ seed sms <<<"$setting"
  for i in 1 2; do
    # The driver's last line counts its calls: a trace without it stopped early (a crash).
    FAKE_OCC=$occ FAKE_SEED=$seed FAKE_SMS=$sms "$work/trace$i" >"$work/t$i.txt" 2>"$work/e$i.txt" ||
      true
    grep -q '^[0-9]* calls$' "$work/e$i.txt" ||
      { echo "compare.sh: the trace of ${!i} stopped early at occupancy $occ (seed $seed), $sms SMs" \
        "after $(wc -l <"$work/t$i.txt") calls" >&2; exit 2; }
  done
  differ=$(diff "$work/t1.txt" "$work/t2.txt" | grep -c '^<' || true)
  echo "occupancy $occ (seed $seed), $sms SMs: $(wc -l <"$work/t1.txt") calls," \
    "$( ((differ == 0)) && echo identical || echo "$differ differ")"
  if ((differ > 0)); then
    moved=1
    if [[ -n $diff_file ]]; then
      echo "# occupancy $occ (seed $seed), $sms SMs" >>"$diff_file"
      diff "$work/t1.txt" "$work/t2.txt" | grep '^[<>]' >>"$diff_file" || true
    fi
  fi
done
exit $moved
