#!/usr/bin/env bash
# README's first command: install what is missing, build, and run the 32-case seed table
# (validated, then timed), writing results/local/seed-table.json.
# Usage: scripts/run-seed-sweep.sh   (RKV_BUILD_DIR=dir to build elsewhere than build/)
# Without a GPU the tool itself says so in one line and exits 4; exec passes that straight through.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${RKV_BUILD_DIR:-build}

bash scripts/install-deps.sh
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
# Same options as scripts/test.sh, so switching between the two commands rebuilds nothing.
cmake -S . -B "$build" -G Ninja -DRKV_WERROR=ON
cmake --build "$build" -j"$(nproc)" --target rope-kv-bench

mkdir -p results/local
exec "$build/rope-kv-bench" bench --config configs/seed-table.json --json results/local/seed-table.json
