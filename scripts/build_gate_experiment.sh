#!/usr/bin/env bash
# Builds the three binaries of the perf gate's H200 A/B (scripts/gate_device.sh), here, from the
# committed HEAD (read once), each in a temporary git worktree (the working tree is not touched):
#   dist/gate-base/rope-kv-bench  the revision as it is: measures the baseline
#   dist/gate-slow/rope-kv-bench  the same with results/h200/gate/slowdown.patch applied: a fused
#                                 kernel slowed on purpose (an experiment build, never the product)
#   dist/gate-same/rope-kv-bench  an unmodified rebuild of the same revision: must pass the gate
# The binaries link the CUDA runtime statically, so the folder can be carried to a GPU box.
#   scripts/build_gate_experiment.sh [DIST]   (default dist)
set -euo pipefail
repo=$(git rev-parse --show-toplevel)
rev=$(git -C "$repo" rev-parse HEAD)  # pinned: all three builds are of one revision
dist=${1:-$repo/dist}
patch=$repo/results/h200/gate/slowdown.patch
export PATH=/usr/local/cuda/bin:$PATH
scratch=$(mktemp -d)
trees=()
cleanup() {
  for t in "${trees[@]}"; do
    git -C "$repo" worktree remove --force "$t" >/dev/null 2>&1 || true
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

build() {  # build NAME [PATCH]
  local name=$1 tree=$scratch/$1
  git -C "$repo" worktree add --detach "$tree" "$rev" >/dev/null
  trees+=("$tree")
  if [[ $# -ge 2 ]]; then git -C "$tree" apply "$2"; fi
  # The test build's flags (warnings as errors), so a compiler cache can reuse its objects.
  cmake -S "$tree" -B "$tree/build" -G Ninja -DRKV_WERROR=ON -DRKV_BUILD_TESTS=OFF >/dev/null
  cmake --build "$tree/build" -j2 --target rope-kv-bench >/dev/null
  mkdir -p "$dist/gate-$name"
  cp "$tree/build/rope-kv-bench" "$dist/gate-$name/rope-kv-bench"
  echo "dist/gate-$name/rope-kv-bench: $("$dist/gate-$name/rope-kv-bench" --help >/dev/null && git -C "$tree" describe --always --dirty)"
}

build base
build slow "$patch"
build same
