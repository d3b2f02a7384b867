#!/usr/bin/env bash
# The perf gate's A/B on a GPU box, in one go from the repository root (docs/ci.md, "Proof on
# the H200"). Needs the binaries of scripts/build_gate_experiment.sh in DIST and python3.
#   1. baseline: dist/gate-base/rope-kv-bench bench --config configs/gate-ab.json
#   2. scripts/ci-gate.sh with the slowed fused kernel (dist/gate-slow): must exit 1, with the
#      N=128, 2048 and 16384 cases confirmed as regressions
#   3. scripts/ci-gate.sh with an unmodified rebuild (dist/gate-same): must exit 0
# Everything (reports, re-runs, verdict JSON, Markdown, logs) goes under "$OUT/gate/"; the
# script exits 0 only when both expectations hold, and says which one failed otherwise.
#   OUT=/some/folder scripts/gate_device.sh [DIST]   (default dist)
set -uo pipefail
dist=${1:-dist}
config=${GATE_CONFIG:-configs/gate-ab.json}
[[ -n ${OUT:-} ]] || { echo "gate_device: set OUT to the output folder" >&2; exit 4; }
gate=$OUT/gate
mkdir -p "$gate"
log=$gate/gate-device.log
for b in base slow same; do
  [[ -x $dist/gate-$b/rope-kv-bench ]] ||
    { echo "gate_device: $dist/gate-$b/rope-kv-bench missing (scripts/build_gate_experiment.sh)" | tee -a "$log" >&2; exit 4; }
done
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$gate/nvidia-smi.csv" 2>&1

step() {
  echo "=== $1 ($(date -u +%H:%M:%S))" | tee -a "$log"
}

step "baseline: gate-base bench --config $config"
"$dist/gate-base/rope-kv-bench" bench --config "$config" --json "$gate/baseline.json" 2>&1 | tee -a "$log"
base_rc=${PIPESTATUS[0]}
[[ $base_rc -eq 0 && -s $gate/baseline.json ]] ||
  { echo "gate_device: the baseline run failed (exit $base_rc)" | tee -a "$log" >&2; exit 4; }

run_gate() {  # run_gate NAME: ci-gate.sh with dist/gate-NAME, outputs in $gate/NAME
  step "ci-gate.sh with gate-$1"
  GATE_OUT=$gate/$1 BINARY=$dist/gate-$1/rope-kv-bench scripts/ci-gate.sh "$gate/baseline.json" \
    "$config" --markdown "$gate/$1/comment.md" --all 2>&1 | tee -a "$log"
  return "${PIPESTATUS[0]}"
}
run_gate slow
slow_rc=$?
run_gate same
same_rc=$?

# The slowed build must be caught at every size, through the re-run: each of N=128, 2048 and
# 16384 has a confirmed regression in the final verdict.
python3 - "$gate/slow/verdict.json" "$slow_rc" "$same_rc" <<'PY' | tee -a "$log" "$gate/summary.txt"
import json, sys
verdict, slow_rc, same_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ok = True
print(f"slowed build: exit {slow_rc} (want 1); unmodified rebuild: exit {same_rc} (want 0)")
ok &= slow_rc == 1 and same_rc == 0
try:
    doc = json.load(open(verdict))
    cases = doc["cases"]
    # Every run here is on this one GPU: the reports carry its uuid, so no machine allowance.
    print(f"same GPU: {doc.get('same_gpu')} (want True); {doc['rule'].get('machine_allowance_why')}")
    ok &= doc.get("same_gpu") is True
except (OSError, ValueError, KeyError) as e:
    cases = []
    print(f"no verdict of the slowed build: {e}")
for n in (128, 2048, 16384):
    hit = [c["id"] for c in cases if c["id"].endswith(f"|N={n}") and c["verdict"] == "regression"]
    print(f"N={n}: {len(hit)} confirmed regression(s) {hit}")
    ok &= len(hit) > 0
print("gate A/B:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
exit "${PIPESTATUS[0]}"
