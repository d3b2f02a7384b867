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
exec bash "$repo/scripts/build_kernel_experiments.sh" --dist "${1:-$repo/dist}" --prefix gate- \
  base=HEAD slow="$repo/results/h200/gate/slowdown.patch" same=HEAD
