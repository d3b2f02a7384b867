#!/usr/bin/env bash
# First look at a GPU box with a carried build: who the device is, then the smoke validation.
# Usage: scripts/device_smoke.sh BIN_DIR OUT_DIR
set -u
bin=${1:?bin dir}; out=${2:?out dir}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/nvidia-smi.csv"
"$bin/rope-kv-bench" validate --config configs/ci-smoke.json --json "$out/validate-smoke.json" 2>&1 | tail -30
