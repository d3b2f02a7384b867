#!/usr/bin/env bash
# Builds the H200 run history and its dashboard from the committed reports:
#   results/h200/history.sql      the database as a text dump (sqlite3 .dump), so it diffs
#   results/h200/dashboard/       `rope-kv-bench dashboard` of it, committed gzipped
#                                 (index.html.gz: 2 MiB of HTML the device calls' tree budget
#                                 cannot spare; gunzip it, then open index.html from file://)
#   results/h200/dashboard.png    a headless-Chromium screenshot of the dashboard
# Reports: kernel v1 (experiments/v1-*), v4 (experiments/v4-*), v5 (experiments/v5-*, once the
# v5 reports move there), this wave's (house/, wave2/) and every report directly in results/h200/ (the current kernel, and
# whatever is added there later). Files that are not rope-kv-bench reports (gbench.json,
# gtest.json.gz) are left out. Reports are added in name order, so the dump is reproducible; the
# dashboard is made from the dump re-imported, so what is committed is what the dump holds.
# Usage: scripts/make_history.sh [BUILD_DIR]     (default build/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/rope-kv-bench
out=results/h200
[[ -x $bin ]] || { echo "make_history: $bin not found; build first (cmake --build $build)" >&2; exit 4; }
command -v sqlite3 >/dev/null || { echo "make_history: the sqlite3 command is missing (scripts/install-deps.sh)" >&2; exit 4; }

reports=() unpacked=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "${unpacked[@]}"' EXIT
# The seed table after the src/ move (v5), kernel v6's three seed runs (one fresh machine each)
# and its decode run, wave3's three fresh seed runs and the PDL run, wave5's three ten-pass seed
# runs (the stride-resonance fix), wave6's three (the input refresh); the validate-only matrices, the 864-case never-slower surveys
# and wave4 (an experiment build whose revision was lost) stay out (size: a trend page, not an
# archive).
# A `*.json*` pattern takes a report whether it is plain, gzipped or xz-packed (decode.json.gz,
# prefill.json.gz, gtest.json.gz, wave2's runs 2 and 3 and wave3's reports were gzipped for size,
# wave2's noise.json.xz packed tighter in session 48) in the same name order; the validate-only
# matrix in results/h200 (validate-full-matrix.json.gz) stays out.
for f in "$out"/experiments/v1-*.json* "$out"/experiments/v4-*.json* "$out"/experiments/v5-*.json \
  "$out"/*.json* "$out"/house/seed-table.json* "$out"/wave2/seed-table-run*.json* \
  "$out"/wave2/noise.json.xz "$out"/wave3/seed-table-fresh*.json* "$out"/wave3/pdl/pdl.json* \
  "$out"/wave5/seed-table-fresh*.json* "$out"/wave6/seed/seed-table-fresh*.json.gz; do
  [[ -f $f ]] || continue
  [[ $f == "$out"/validate-* ]] && continue
  if [[ $f == *.gz || $f == *.xz ]]; then
    # Kept packed for size (a device call copies the whole tree); `history add` reads plain JSON
    # and records the path it was given, so it gets the file unpacked beside its .gz or .xz, under
    # the name it had before it was packed, removed again on exit.
    plain=${f%.?z}
    [[ -e $plain ]] && { echo "make_history: both $f and $plain exist; remove one" >&2; exit 4; }
    if [[ $f == *.gz ]]; then gzip -dc "$f" >"$plain"; else xz -dc "$f" >"$plain"; fi
    unpacked+=("$plain")
    f=$plain
  fi
  grep -q '"schema_version"' "$f" || continue  # Google Benchmark / GoogleTest output
  reports+=("$f")
done
((${#reports[@]} > 0)) || { echo "make_history: no reports under $out" >&2; exit 4; }

"$bin" history add --db "$tmp/built.sqlite" "${reports[@]}" >"$tmp/add.log"
# .dump leaves out the header fields that mark the file as a rope-kv-bench history; append them.
{
  sqlite3 "$tmp/built.sqlite" .dump
  echo "PRAGMA application_id=$(sqlite3 "$tmp/built.sqlite" 'PRAGMA application_id');"
  echo "PRAGMA user_version=$(sqlite3 "$tmp/built.sqlite" 'PRAGMA user_version');"
} >"$out/history.sql.tmp"
mv "$out/history.sql.tmp" "$out/history.sql"
sqlite3 "$tmp/from-dump.sqlite" <"$out/history.sql"
"$bin" history list --db "$tmp/from-dump.sqlite" | tail -n 1
rm -rf "$out/dashboard"
"$bin" dashboard --db "$tmp/from-dump.sqlite" --out "$out/dashboard"

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -n $browser ]]; then
  "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-dev-shm-usage \
    --hide-scrollbars --window-size=1400,1800 --screenshot="$out/dashboard.png" \
    "file://$(realpath "$out/dashboard/index.html")" 2>"$tmp/chromium.log" ||
    { echo "make_history: chromium failed:" >&2; tail -n 5 "$tmp/chromium.log" >&2; exit 1; }
fi
# The screenshot read the page; what is committed is the page gzipped (tests/tree_budget_test.py).
gzip -9n -f "$out/dashboard/index.html"
if [[ -n $browser ]]; then
  echo "wrote $out/history.sql, $out/dashboard/index.html.gz, $out/dashboard.png"
else
  echo "wrote $out/history.sql, $out/dashboard/index.html.gz (no chromium: no screenshot)" >&2
fi
