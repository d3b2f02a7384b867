#!/usr/bin/env bash
# The perf gate as one CI step: time the sweep, compare it with the baseline, time the flagged
# cases once more, and fail only on what the re-run confirms (docs/ci.md).
#
#   scripts/ci-gate.sh [--binary PATH] BASELINE CONFIG [compare options...]
#
#   BASELINE  a bench report (JSON) of the same config on the same kind of runner; best one
#             measured on this runner's own GPU: its device.uuid then matches the sweep's and
#             compare applies no between-machine allowance (docs/ci.md, "Same GPU or another").
#             The re-run below runs here too, so it carries the sweep's uuid.
#   CONFIG    the sweep config, e.g. configs/kernel-ab-decode.json
#   compare options  passed to `rope-kv-bench compare` (--gate, --allow-missing, --force,
#             --min-slowdown, --machine-allowance, --json FILE, --markdown FILE, --github, --all,
#             --refreshed-baseline FILE, --accept IDS); the output options apply to the final
#             comparison only
#
# Environment: BINARY (default build/rope-kv-bench; --binary overrides it), GATE_OUT (folder for
# current.json, rerun.json and the verdicts; default ci-gate-out). Needs python3 to read the
# first verdict's flagged cases.
#
# Exit code: the final comparison's (0 pass, 1 regression or missing case, 2 a case did not
# pass, 3 interrupted run, 4 usage, 5 other environment); 4 also when the sweep could not run.
set -uo pipefail

binary=${BINARY:-build/rope-kv-bench}
out=${GATE_OUT:-ci-gate-out}
usage="usage: scripts/ci-gate.sh [--binary PATH] BASELINE CONFIG [compare options...]"

if [[ ${1:-} == --binary ]]; then
  [[ $# -ge 2 ]] || { echo "ci-gate: --binary needs a path; $usage" >&2; exit 4; }
  binary=$2
  shift 2
fi
if [[ $# -lt 2 ]]; then
  echo "ci-gate: $usage" >&2
  exit 4
fi
baseline=$1
config=$2
shift 2
[[ -x $binary ]] || { echo "ci-gate: BINARY '$binary' is not an executable" >&2; exit 4; }
[[ -f $baseline ]] || { echo "ci-gate: BASELINE '$baseline': no such file" >&2; exit 4; }
[[ -f $config ]] || { echo "ci-gate: CONFIG '$config': no such file" >&2; exit 4; }

# Output options go to the final comparison only (the first one would annotate and refresh on
# numbers the re-run may overturn); everything else shapes every comparison.
gate_args=()
out_args=()
user_json=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --json | --markdown | --refreshed-baseline)
      [[ $# -ge 2 ]] || { echo "ci-gate: $1 needs a FILE" >&2; exit 4; }
      [[ $1 == --json ]] && user_json=$2
      out_args+=("$1" "$2")
      shift 2
      ;;
    --json=* | --markdown=* | --refreshed-baseline=*)
      [[ $1 == --json=* ]] && user_json=${1#--json=}
      out_args+=("$1")
      shift
      ;;
    --github | --all)
      out_args+=("$1")
      shift
      ;;
    *)
      gate_args+=("$1")
      shift
      ;;
  esac
done
[[ -n $user_json ]] || out_args+=(--json "$out/verdict.json")

mkdir -p "$out" || { echo "ci-gate: cannot create GATE_OUT '$out'" >&2; exit 4; }
rm -f "$out/current.json" "$out/rerun.json" "$out/first-verdict.json"

echo "ci-gate: bench --config $config ($binary)"
"$binary" bench --config "$config" --json "$out/current.json"
bench_rc=$?
if [[ ! -s $out/current.json ]]; then
  echo "ci-gate: the sweep wrote no report (bench exit $bench_rc)" >&2
  exit $((bench_rc == 0 ? 4 : bench_rc))
fi
# A sweep whose cases failed validation still wrote its report; compare names them (exit 2).

echo "ci-gate: compare $baseline $out/current.json"
"$binary" compare "$baseline" "$out/current.json" "${gate_args[@]}" \
  --json "$out/first-verdict.json" >"$out/first-compare.txt"
first_rc=$?
rerun_args=()
if [[ $first_rc -eq 1 && -s $out/first-verdict.json ]]; then
  mapfile -t flagged < <(python3 -c '
import json, sys
ids = []
for c in json.load(open(sys.argv[1]))["cases"]:
    if c["verdict"] == "regression" and c["id"] not in ids:
        ids.append(c["id"])
print("\n".join(ids))' "$out/first-verdict.json")
  if [[ ${#flagged[@]} -gt 0 && -n ${flagged[0]} ]]; then
    cat "$out/first-compare.txt"
    echo "ci-gate: ${#flagged[@]} case(s) flagged; timing them once more"
    case_args=()
    for id in "${flagged[@]}"; do
      case_args+=(--case "$id")
    done
    "$binary" bench --config "$config" "${case_args[@]}" --json "$out/rerun.json"
    rerun_rc=$?
    if [[ -s $out/rerun.json ]]; then
      rerun_args=(--rerun "$out/rerun.json")
    else
      echo "ci-gate: the re-run wrote no report (bench exit $rerun_rc); the flags stand" >&2
    fi
  fi
fi

echo "ci-gate: final comparison"
"$binary" compare "$baseline" "$out/current.json" "${rerun_args[@]}" "${gate_args[@]}" \
  "${out_args[@]}"
rc=$?
echo "ci-gate: exit $rc"
exit $rc
