#!/usr/bin/env bash
# On the GPU box, from the repository root: build and install the Python package from this
# checkout, run its whole pytest suite (the GPU tests included) and the vLLM-style example.
# Usage: OUT=dir bash scripts/python_device.sh
#   $OUT/python-pytest.log    versions, the build's timing (its full output only if it failed),
#                             then pytest -v with every skip's reason
#   $OUT/python-example.txt   python/examples/vllm_style.py: two calls vs one, CUDA-graph timings
# Needs what the H200 image has: python3 with torch, numpy, pytest, nanobind and
# scikit-build-core, nvcc, CMake and ninja. No network there, so pip builds without isolation and
# fetches nothing. Exit status: that of pytest, or of the build when it failed (then no tests run).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 4
if [[ -z ${OUT:-} ]]; then
  sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
mkdir -p "$OUT"
log=$OUT/python-pytest.log
example=$OUT/python-example.txt
export PYTHONUNBUFFERED=1
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"

{
  echo "== python_device.sh, $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -n1
  python3 - <<'EOF' 2>&1
import importlib.metadata as md
import sys

def version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return "-"

names = ["torch", "numpy", "pytest", "nanobind", "scikit-build-core", "cmake", "ninja"]
print("python", sys.version.split()[0], "|", ", ".join(f"{n} {version(n)}" for n in names))
EOF
} >"$log"

# Build: scikit-build-core runs CMake on python/ (kernels/ and reference/ compiled for sm_90) in a
# scratch build folder; ninja uses every core.
build_log=$(mktemp)
start=$SECONDS
python3 -m pip install --no-build-isolation --no-deps --no-cache-dir --force-reinstall \
  --config-settings=build-dir="$(mktemp -d)" ./python >"$build_log" 2>&1
rc=$?
echo "== pip install ./python: exit $rc in $((SECONDS - start)) s" >>"$log"
if ((rc != 0)); then
  cat "$build_log" >>"$log"
  echo "build failed; see $log" >&2
  exit "$rc"
fi
tail -n 2 "$build_log" >>"$log"

# Tests from a folder without a rope_kv/ in it, so the installed package is the one imported.
start=$SECONDS
(cd python/tests && python3 -m pytest -v -rs -p no:cacheprovider .) >>"$log" 2>&1
rc=$?
echo "== pytest: exit $rc in $((SECONDS - start)) s" >>"$log"

start=$SECONDS
python3 python/examples/vllm_style.py >"$example" 2>&1
echo "== example: exit $? in $((SECONDS - start)) s" >>"$log"
tail -n 3 "$log"
exit "$rc"
