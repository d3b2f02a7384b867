#!/usr/bin/env bash
# On the GPU box, from the repository root: build and install the Python package from this
# checkout, run its whole pytest suite (the GPU tests included) and the vLLM-style example.
# Usage: OUT=dir bash scripts/python_device.sh
#   $OUT/python-pytest.log    versions, the build's timing (its full output only if it failed),
#                             then pytest -v with every skip's reason, one run per test file (a
#                             crash in one cannot hide the others), a summary line per file
#   $OUT/python-example.txt   python/examples/vllm_style.py: two calls vs one, CUDA-graph timings
#   $OUT/python-crash-probe.txt  only after a crash: one refused call, plain, after torch's CUDA
#                             init, and under gdb (native stack) where gdb is installed
# Needs what the H200 image has: python3 with torch, numpy, pytest, nanobind and
# scikit-build-core, nvcc, CMake and ninja. No network there, so pip builds without isolation and
# fetches nothing. Exit status: the first test file's non-zero pytest exit (139 for a segfault),
# else 0; or the build's when it failed (then no tests run).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 4
if [[ -z ${OUT:-} ]]; then
  sed -n '2,14s/^# \{0,1\}//p' "$0" >&2
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

# Tests from a folder without a rope_kv/ in it, so the installed package is the one imported. One
# pytest per file: a crash (a signal kills the interpreter) in one file cannot hide the others'
# results, and each file gets one summary line.
rc=0
summary=()
for file in python/tests/test_*.py; do
  name=$(basename "$file")
  start=$SECONDS
  (cd python/tests && python3 -m pytest -v -rs -p no:cacheprovider "$name") >"$OUT/pytest-$name.log" 2>&1
  file_rc=$?
  cat "$OUT/pytest-$name.log" >>"$log"
  last=$(grep -E '^=+ .* in [0-9.]+s' "$OUT/pytest-$name.log" | tail -n1 | sed -E 's/^=+ //; s/ =+$//')
  if ((file_rc > 128)); then
    running=$(grep -oE '^test_[A-Za-z0-9_]+\.py::[^ ]+' "$OUT/pytest-$name.log" | tail -n1)
    last="CRASHED: killed by signal $((file_rc - 128)) in ${running:-?} (faulthandler's stack above)"
  fi
  line="== pytest $name: exit $file_rc in $((SECONDS - start)) s: ${last:-no summary line}"
  summary+=("$line")
  echo "$line" >>"$log"
  ((rc == 0 && file_rc != 0)) && rc=$file_rc
done
rm -f "$OUT"/pytest-test_*.py.log

# After a crash: one refused call (the first refusal the extension returns) in a fresh
# interpreter, plainly and after torch initialized CUDA, then under gdb for the native stack.
probe=$OUT/python-crash-probe.txt
if printf '%s\n' "${summary[@]}" | grep -q CRASHED; then
  for mode in plain torch; do
    (cd python/tests && python3 -X faulthandler exception_probe.py "$mode") >>"$probe" 2>&1
    line="== probe ($mode): exit $?"
    echo "$line" >>"$probe"
    summary+=("$line")
  done
  if command -v gdb >/dev/null 2>&1; then
    (cd python/tests && gdb -q -batch -ex run -ex bt -ex 'info sharedlibrary' \
      --args "$(python3 -c 'import sys; print(sys.executable)')" exception_probe.py torch) \
      >>"$probe" 2>&1
  fi
fi
{
  echo "== pytest summary (exit $rc)"
  printf '%s\n' "${summary[@]}"
} >>"$log"

start=$SECONDS
python3 python/examples/vllm_style.py >"$example" 2>&1
echo "== example: exit $? in $((SECONDS - start)) s" >>"$log"
sed -n '/^== pytest summary/,$p' "$log"
exit "$rc"
