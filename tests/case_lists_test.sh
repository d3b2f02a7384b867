#!/usr/bin/env bash
# scripts/check_case_lists.sh against the real CLI: every committed experiment subset plans; a list
# naming a case the planner refuses (MLA in packed_nhd, a head count that is no head config), an
# empty list and a list with a blank line between ids are judged as they should be; bad arguments
# exit 4.
#   tests/case_lists_test.sh REPO_ROOT REAL_CLI
set -uo pipefail
repo=$1 cli=$2
check=$repo/scripts/check_case_lists.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
expect() {  # expect WANT_EXIT WANT_TEXT ARGS...: the checker's exit and a piece of its output
  local want=$1 text=$2
  shift 2
  local out rc
  out=$(bash "$check" "$@" 2>&1)
  rc=$?
  if [[ $rc != "$want" || $out != *"$text"* ]]; then
    echo "FAIL: check_case_lists $* -> exit $rc (want $want), output: $out"
    fail=1
  fi
}
expect 0 "list(s) plan" "$cli" "$repo/results/h200/experiments/patches"
# A list mixing good ids with one the planner refuses: exit 1, the list and the refusal named.
printf '%s\n' 'bf16|auto|mla:16|neox|nhd|N=16384' '' 'fp16|auto|32x8x128|gptj|nhd|N=2048|rot=64' \
  >"$work/good.txt"
expect 0 "1 list(s) plan" "$cli" "$work/good.txt"
cp "$work/good.txt" "$work/bad.txt"
echo 'bf16|auto|mla:16|neox|packed_nhd|N=16384' >>"$work/bad.txt"
expect 1 "bad.txt: rope-kv-bench: error: --case 'bf16|auto|mla:16|neox|packed_nhd|N=16384'" \
  "$cli" "$work/good.txt" "$work/bad.txt"
echo 'bf16|auto|3x2x128|neox|nhd|N=7' >"$work/heads.txt"
expect 1 "heads.txt: " "$cli" "$work/heads.txt"
: >"$work/empty.txt"
expect 1 "empty.txt: no case ids" "$cli" "$work/empty.txt"
# The last id without a newline is still read.
printf '%s' 'bf16|auto|mla:16|neox|packed_nhd|N=8' >"$work/tail.txt"
expect 1 "tail.txt: " "$cli" "$work/tail.txt"
mkdir "$work/none"
expect 4 "no *.subset.txt under" "$cli" "$work/none"
expect 4 "no file or folder" "$cli" "$work/missing.txt"
expect 4 "is not an executable" "$work/good.txt" "$work/good.txt"
expect 4 "usage" "$cli"
((fail == 0)) && echo "case_lists_test: all checks passed"
exit "$fail"
