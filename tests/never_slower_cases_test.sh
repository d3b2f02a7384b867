#!/usr/bin/env bash
# scripts/never_slower_cases.sh without a GPU: a stand-in bench answers with the committed
# never-slower report of round 65's moved cases (results/h100/wave37/land65-cef68a2/), after
# checking it was asked for exactly the listed cases; the script must pack the report and the
# check's verdict and exit 0, exit 1 once one case's lower bound is spoiled below 1.0, and refuse
# bad arguments with exit 4 before running anything.
#   tests/never_slower_cases_test.sh REPO_ROOT
set -uo pipefail
repo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

tar -xJf "$repo/results/h100/wave37/land65-cef68a2/ns-moved.tar.xz" -C "$work" ||
  fail "cannot unpack the committed report"
report=$(find "$work" -name 'ns-moved.json' | head -1)
[[ -f $report ]] || fail "no ns-moved.json in the committed tarball"
python3 -c 'import json,sys; [print(c["id"]) for c in json.load(open(sys.argv[1]))["cases"]]' \
  "$report" | sort -u >"$work/cases.txt"

# The stand-in: the case ids it was given must be the list's, then it writes REPORT to --json.
cat >"$work/bench" <<STUB
#!/usr/bin/env bash
ids=() json=
while ((\$#)); do
  case \$1 in --case) ids+=("\$2"); shift ;; --json) json=\$2; shift ;; esac
  shift
done
printf '%s\n' "\${ids[@]}" | sort -u | cmp -s - "$work/cases.txt" || { echo "wrong cases" >&2; exit 3; }
cp "\${REPORT:?}" "\$json"
STUB
chmod +x "$work/bench"

cd "$repo" || fail "no repo $repo"
out=$work/out
REPORT=$report OUT=$out bash scripts/never_slower_cases.sh "$work/bench" "$work/cases.txt" ns \
  >"$work/log" 2>&1
rc=$?
n=$(wc -l <"$work/cases.txt")
((rc == 0)) || fail "a passing report: exit $rc: $(cat "$work/log")"
grep -q "bench exit 0" "$work/log" || fail "the stand-in was not asked for the list's cases"
tar -xzf "$out/ns.tar.gz" -C "$work" || fail "no ns.tar.gz"
grep -q "$n of $n cases have lo >= 1.0" "$work/ns/check.txt" || fail "check: $(cat "$work/ns/check.txt")"
[[ -f $work/ns/ns.json && -f $work/ns/bench.txt ]] || fail "the pack lacks the report or the log"
[[ ! -e $out/ns ]] || fail "the unpacked folder was left under OUT"

python3 - "$report" "$work/slow.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["cases"][0]["speedup"]["lo"] = 0.97
json.dump(r, open(sys.argv[2], "w"))
PY
REPORT=$work/slow.json OUT=$work/out2 bash scripts/never_slower_cases.sh "$work/bench" \
  "$work/cases.txt" ns >"$work/log2" 2>&1
rc=$?
((rc == 1)) || fail "a slow case: exit $rc, want 1: $(cat "$work/log2")"

for args in "" "$work/bench" "$work/nosuch $work/cases.txt ns" "$work/bench $work/none ns" \
  "$work/bench $work/cases.txt bad/name"; do
  # shellcheck disable=SC2086
  OUT=$work/out3 bash scripts/never_slower_cases.sh $args >/dev/null 2>"$work/err"
  rc=$?
  ((rc == 4)) || fail "'$args': exit $rc, want 4"
  [[ $(wc -l <"$work/err") == 1 ]] || fail "'$args': not one line: $(cat "$work/err")"
done
[[ ! -e $work/out3 ]] || fail "a refused call wrote under OUT"
echo "never_slower_cases_test: ok"
