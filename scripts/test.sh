#!/usr/bin/env bash
# THE test command (README's second command; .ci/run calls exactly this): install what is missing,
# configure with warnings as errors, build everything (CUDA sources for sm_90 included), run CTest.
# GPU tests skip themselves where there is no GPU, so this passes on a CPU-only CI machine.
# Usage: scripts/test.sh            (RKV_BUILD_DIR=dir to build elsewhere than build/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${RKV_BUILD_DIR:-build}

bash scripts/install-deps.sh
# The CUDA installers put nvcc in /usr/local/cuda/bin without touching PATH.
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"

# RKV_BUILD_TESTS=ON explicitly: a build dir configured earlier with it OFF would otherwise keep
# it, and CTest would find nothing to run.
cmake -S . -B "$build" -G Ninja -DRKV_WERROR=ON -DRKV_BUILD_TESTS=ON
cmake --build "$build" -j"$(nproc)"
# --no-tests=error: zero discovered tests is a failure, not a pass.
ctest --test-dir "$build" --output-on-failure --no-tests=error -j"$(nproc)"
