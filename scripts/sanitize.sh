#!/usr/bin/env bash
# compute-sanitizer over `rope-kv-bench validate` on a representative subset (configs/sanitizer.json:
# 39 cases, every layout, both styles, fp8, T > Tc, 1 and 4096 tokens, MLA, ...), one run per tool.
# Usage: scripts/sanitize.sh OUT_DIR [BINARY (default build/rope-kv-bench)]   (from the repo root)
#   env: SANITIZER_TOOLS  (default "memcheck racecheck initcheck synccheck")
#        SANITIZER_CONFIG (default configs/sanitizer.json), SANITIZER_TIMEOUT (s per tool, 300)
# Writes OUT_DIR/TOOL.log per tool and OUT_DIR/summary.txt, one line per tool ("memcheck: 0 errors");
# exits 1 when any tool found an error, did not finish, or the validation itself failed.
#
# Why validate: it runs the fused kernel, the unfused pair and the device comparison kernels on
# every case, so one pass covers all device code. The subset stays small because memcheck makes
# kernels 10-100x slower; 4096 tokens is already many thread blocks and past the golden model's
# 2048-token sample, so the large-case paths run too.
set -uo pipefail
if (($# < 1 || $# > 2)); then
  echo "usage: scripts/sanitize.sh OUT_DIR [BINARY (default build/rope-kv-bench)]" >&2
  exit 4
fi
out=$1 bin=${2:-build/rope-kv-bench}
tools=${SANITIZER_TOOLS:-memcheck racecheck initcheck synccheck}
config=${SANITIZER_CONFIG:-configs/sanitizer.json}
limit=${SANITIZER_TIMEOUT:-300}
[[ -x $bin ]] || { echo "sanitize.sh: $bin is not an executable (build it, or pass BINARY)" >&2; exit 4; }

cs=$(command -v compute-sanitizer || true)
for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  [[ -z $cs && -x $c ]] && cs=$c
done
[[ -n $cs ]] || { echo "sanitize.sh: compute-sanitizer not found on PATH or in /usr/local/cuda (it ships with the CUDA Toolkit)" >&2; exit 4; }
mkdir -p "$out"
: >"$out/summary.txt"

failed=0
for tool in $tools; do
  extra=()
  # memcheck: also report device allocations never freed.
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  log=$out/$tool.log
  t0=$SECONDS
  {
    echo "# $("$cs" --version | tail -n1); $bin validate --config $config; tool $tool"
    # --error-exitcode: a hazard fails the run even when the application exits 0. timeout -s INT:
    # the tool ends after the case in flight and the sanitizer still prints its summary.
    timeout -s INT -k 30 "$limit" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$bin" validate --config "$config"
  } >"$log" 2>&1
  rc=$?
  secs=$((SECONDS - t0))
  # racecheck reports "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"; the other
  # tools "ERROR SUMMARY: E errors".
  if [[ $tool == racecheck ]]; then
    errors=$(sed -n 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$log" | tail -n1)
  else
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n1)
  fi
  leak=$(sed -n 's/.*LEAK SUMMARY: \(.*\)/\1/p' "$log" | tail -n1)
  if [[ -z $errors ]]; then
    line="$tool: no summary (exit $rc; see $log)"
    failed=1
  else
    line="$tool: $errors errors"
    [[ $errors != 0 ]] && failed=1
    if ((rc == 124)); then
      line+=" so far, but it did not finish within ${limit} s"
      failed=1
    elif ((rc != 0 && rc != 99)); then
      line+=", but validate exited $rc (see $log)"
      failed=1
    fi
  fi
  [[ -n $leak ]] && line+="; leaks: $leak"
  echo "$line (${secs} s)" | tee -a "$out/summary.txt"
done
exit "$failed"
