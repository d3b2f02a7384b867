#!/usr/bin/env bash
# scripts/ci-gate.sh end to end without a GPU: a stand-in BINARY answers `bench` with prepared
# reports (doctored copies of the committed seed table) and hands `compare` to the real CLI.
# Checks the exit codes and that only flagged cases are re-run.
#   tests/ci_gate_test.sh REPO_ROOT REAL_CLI
set -uo pipefail
repo=$1
cli=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seed=$repo/results/h200/seed-table.json
run2=$repo/results/h200/seed-table-run2.json
config=$repo/configs/seed-table.json
n2048='bf16|auto|32x8x128|neox|nhd|N=2048'

# doctor IN OUT FACTOR [DISPOSITION]: the N=2048 case's fused statistics times FACTOR.
doctor() {
  python3 - "$@" <<'PY'
import json, sys
src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = json.load(open(src))
for c in r["cases"]:
    if c["id"] != "bf16|auto|32x8x128|neox|nhd|N=2048":
        continue
    for v in c["variants"]:
        if v["variant"] == "fused":
            for s in [v] + v.get("passes", []):
                for k in ("median_us", "q1_us", "q3_us", "min_us", "max_us", "mean_us", "stdev_us"):
                    s[k] *= factor
    if len(sys.argv) > 4:
        c["validation"]["disposition"] = sys.argv[4]
json.dump(r, open(dst, "w"))
PY
}

# The stand-in: `bench ... --json F` copies $FAKE_CURRENT (or $FAKE_RERUN when --case is given,
# logging the cases); `compare` runs the real CLI.
cat >"$work/fake-bench" <<STANDIN
#!/usr/bin/env bash
if [[ \$1 == compare ]]; then exec "$cli" "\$@"; fi
json=""; cases=()
while [[ \$# -gt 0 ]]; do
  case \$1 in --json) json=\$2; shift 2;; --case) cases+=("\$2"); shift 2;; *) shift;; esac
done
if [[ \${#cases[@]} -gt 0 ]]; then
  printf '%s\n' "\${cases[@]}" >>"$work/rerun-cases.txt"
  cp "\$FAKE_RERUN" "\$json"
else
  cp "\$FAKE_CURRENT" "\$json"
fi
exit 0
STANDIN
chmod +x "$work/fake-bench"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect() {  # expect NAME WANT_RC WANT_RERUN_COUNT CURRENT RERUN [extra args]
  local name=$1 want=$2 want_reruns=$3
  export FAKE_CURRENT=$4 FAKE_RERUN=$5
  shift 5
  rm -f "$work/rerun-cases.txt"
  GATE_OUT=$work/out BINARY=$work/fake-bench "$repo/scripts/ci-gate.sh" "$seed" "$config" "$@" \
    >"$work/log.txt" 2>&1
  local rc=$?
  local reruns=0
  [[ -f $work/rerun-cases.txt ]] && reruns=$(wc -l <"$work/rerun-cases.txt")
  if [[ $rc -ne $want || $reruns -ne $want_reruns ]]; then
    fail "$name: exit $rc (want $want), $reruns case(s) re-run (want $want_reruns)"
    cat "$work/log.txt"
  else
    echo "ok   $name: exit $rc, $reruns re-run"
  fi
}

doctor "$run2" "$work/slow.json" 1.10
doctor "$run2" "$work/incorrect.json" 1.0 incorrect
expect same-build-passes 0 0 "$run2" "$run2"
expect slowdown-confirmed 1 1 "$work/slow.json" "$work/slow.json"
grep -qxF "$n2048" "$work/rerun-cases.txt" || fail "re-ran the wrong case"
expect slowdown-not-confirmed 0 1 "$work/slow.json" "$run2"
expect validation-failure 2 0 "$work/incorrect.json" "$run2"
expect outputs-to-final-only 1 1 "$work/slow.json" "$work/slow.json" --markdown "$work/pr.md" \
  --refreshed-baseline "$work/refreshed.json"
[[ -s $work/pr.md && ! -e $work/refreshed.json ]] ||
  fail "markdown missing, or a refreshed baseline written on a regression"
expect refreshed-on-pass 0 1 "$work/slow.json" "$run2" --refreshed-baseline "$work/refreshed.json"
[[ -s $work/refreshed.json ]] || fail "no refreshed baseline on a pass"
[[ -s $work/out/verdict.json ]] || fail "no verdict JSON in GATE_OUT"
BINARY=$work/no-such-binary "$repo/scripts/ci-gate.sh" "$seed" "$config" >/dev/null 2>&1
[[ $? -eq 4 ]] || fail "a missing BINARY is not exit 4"
"$repo/scripts/ci-gate.sh" "$seed" >/dev/null 2>&1
[[ $? -eq 4 ]] || fail "a missing CONFIG argument is not exit 4"
exit $((failures > 0))
