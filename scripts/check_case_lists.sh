#!/usr/bin/env bash
# Checks, without a GPU, that every case id of each list (one id a line; blank lines skipped) is
# one the planner accepts: `BIN bench --dry-run --case ID ...`. A judged subset (X.subset.txt
# beside an experiment patch) or a call's AB_CASES list that names a case the planner refuses
# stops the device call at its first step, after the machine has started (session 47 found
# one: an MLA case in the packed_nhd layout, which MLA's single cache layout does not have).
# A folder argument stands for every *.subset.txt under it.
#   scripts/check_case_lists.sh BIN LIST|FOLDER ...
# Exit 0 when every list plans; 1 when one does not (one line a list: the planner's refusal);
# 4 on a bad argument (no BIN, a path that does not exist, a folder with no lists).
set -uo pipefail
if (($# < 2)); then
  echo "usage: scripts/check_case_lists.sh BIN LIST|FOLDER ..." >&2
  exit 4
fi
bin=$1
shift
[[ -x $bin ]] || { echo "check_case_lists: '$bin' is not an executable" >&2; exit 4; }
lists=()
for path in "$@"; do
  if [[ -d $path ]]; then
    mapfile -t found < <(find "$path" -name '*.subset.txt' | sort)
    ((${#found[@]} > 0)) || { echo "check_case_lists: no *.subset.txt under '$path'" >&2; exit 4; }
    lists+=("${found[@]}")
  elif [[ -f $path ]]; then
    lists+=("$path")
  else
    echo "check_case_lists: no file or folder '$path'" >&2
    exit 4
  fi
done
bad=0
for list in "${lists[@]}"; do
  args=()
  while IFS= read -r id || [[ -n $id ]]; do
    [[ -z $id ]] || args+=(--case "$id")
  done <"$list"
  if ((${#args[@]} == 0)); then
    echo "$list: no case ids"
    bad=1
  elif ! refusal=$("$bin" bench --dry-run "${args[@]}" 2>&1 >/dev/null); then
    echo "$list: ${refusal:-the planner refused it}"
    bad=1
  fi
done
((bad == 0)) && echo "check_case_lists: ${#lists[@]} list(s) plan"
exit "$bad"
