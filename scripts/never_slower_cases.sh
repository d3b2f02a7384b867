#!/usr/bin/env bash
# On the GPU box: some cases of configs/never-slower.json (a list such as a round's moved
# launches) with a carried bench, judged on their own by scripts/check_never_slower.py:
#   OUT=DIR scripts/never_slower_cases.sh BENCH CASE_LIST NAME
# CASE_LIST: one case id a line. Writes $OUT/NAME.tar.gz (NAME/NAME.json, the bench's output and
# check.txt), the bench bounded at 200 s (interrupted, it still writes what it timed). Exit: the
# check's (0 every case lo >= 1.0, 1 not, 2 a bad report); 4 on a bad argument.
set -u
if (($# != 3)) || [[ -z ${OUT:-} ]]; then
  echo "usage: OUT=DIR scripts/never_slower_cases.sh BENCH CASE_LIST NAME" >&2
  exit 4
fi
bench=$1 list=$2 name=$3
[[ -x $bench ]] || { echo "never_slower_cases: no executable bench '$bench'" >&2; exit 4; }
[[ -s $list ]] || { echo "never_slower_cases: no case list '$list'" >&2; exit 4; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] ||
  { echo "never_slower_cases: NAME '$name' is not letters, digits, '.', '_', '-'" >&2; exit 4; }
mkdir -p "$OUT/$name"
args=()
while IFS= read -r c; do [[ -n $c ]] && args+=(--case "$c"); done <"$list"
timeout --signal=INT 200 "$bench" bench --config configs/never-slower.json "${args[@]}" \
  --json "$OUT/$name/$name.json" >"$OUT/$name/bench.txt" 2>&1
echo "never_slower_cases: bench exit $?"
python3 scripts/check_never_slower.py "$OUT/$name/$name.json" >"$OUT/$name/check.txt" 2>&1
rc=$?
tail -3 "$OUT/$name/check.txt"
tar -C "$OUT" -czf "$OUT/$name.tar.gz" "$name" && rm -rf "${OUT:?}/$name"
exit $rc
