#!/usr/bin/env bash
# scripts/gate_device.sh without a GPU: stand-in binaries in a fake DIST answer `bench` with
# prepared reports (the committed seed table, its N=2048 case copied as N=16384; the slowed build
# 10 % slower in every fused time; every report stamped with one GPU uuid, as runs on one board
# are) and hand `compare` to the real CLI. The script must pass with these, and fail when the
# "slowed" build is not slower or when the reports do not name one GPU.
#   tests/gate_device_test.sh REPO_ROOT REAL_CLI
set -uo pipefail
repo=$1
cli=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

prepare() {  # prepare IN OUT FACTOR [UUID]
  python3 - "$@" <<'PY'
import copy, json, sys
src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = json.load(open(src))
r["device"]["uuid"] = sys.argv[4] if len(sys.argv) > 4 else "GPU-5e1f0000-0000-4000-8000-000000000001"
for c in list(r["cases"]):
    if c["id"].endswith("|N=2048"):
        big = copy.deepcopy(c)
        big["id"] = c["id"].replace("N=2048", "N=16384")
        big["spec"]["tokens"] = 16384
        r["cases"].append(big)
for c in r["cases"]:
    for v in c["variants"]:
        if v["variant"] == "fused":
            for s in [v] + v.get("passes", []):
                for k in ("median_us", "q1_us", "q3_us", "min_us", "max_us", "mean_us", "stdev_us"):
                    s[k] *= factor
json.dump(r, open(dst, "w"))
PY
}
standin() {  # standin NAME REPORT: dist/gate-NAME/rope-kv-bench answering bench with REPORT
  mkdir -p "$work/dist/gate-$1"
  cat >"$work/dist/gate-$1/rope-kv-bench" <<STANDIN
#!/usr/bin/env bash
if [[ \$1 == compare ]]; then exec "$cli" "\$@"; fi
while [[ \$# -gt 0 ]]; do
  if [[ \$1 == --json ]]; then cp "$2" "\$2"; fi
  shift
done
STANDIN
  chmod +x "$work/dist/gate-$1/rope-kv-bench"
}

prepare "$repo/results/h200/seed-table.json" "$work/base.json" 1.0
prepare "$repo/results/h200/seed-table-run2.json" "$work/same.json" 1.0
prepare "$repo/results/h200/seed-table-run2.json" "$work/slow.json" 1.10
standin base "$work/base.json"
standin same "$work/same.json"
standin slow "$work/slow.json"

cd "$repo" || exit 1
failures=0
OUT=$work/out scripts/gate_device.sh "$work/dist" >"$work/log.txt" 2>&1
rc=$?
if [[ $rc -ne 0 ]] || ! grep -q "gate A/B: PASS" "$work/out/gate/summary.txt"; then
  echo "FAIL: the A/B with a slowed build did not pass (exit $rc)"
  cat "$work/log.txt"
  failures=1
fi
for f in baseline.json slow/current.json slow/rerun.json slow/verdict.json slow/comment.md \
  same/current.json same/verdict.json; do
  [[ -s $work/out/gate/$f ]] || { echo "FAIL: $f missing"; failures=1; }
done
# A "slowed" build that is not slower must make the script fail.
standin slow "$work/same.json"
OUT=$work/out2 scripts/gate_device.sh "$work/dist" >"$work/log2.txt" 2>&1
[[ $? -ne 0 ]] || { echo "FAIL: passed with a slowed build that was not slower"; failures=1; }
# Reports without uuid (the GPU unknown): the verdict cannot show one GPU, the summary fails.
prepare "$repo/results/h200/seed-table-run2.json" "$work/slow-unknown.json" 1.10 ""
standin slow "$work/slow-unknown.json"
OUT=$work/out3 scripts/gate_device.sh "$work/dist" >"$work/log3.txt" 2>&1
[[ $? -ne 0 ]] && grep -q "same GPU: None (want True)" "$work/out3/gate/summary.txt" ||
  { echo "FAIL: passed with reports that do not name one GPU"; cat "$work/log3.txt"; failures=1; }
OUT= scripts/gate_device.sh "$work/dist" >/dev/null 2>&1
[[ $? -eq 4 ]] || { echo "FAIL: no OUT is not exit 4"; failures=1; }
[[ $failures -eq 0 ]] && echo "ok: gate_device.sh"
exit $failures
