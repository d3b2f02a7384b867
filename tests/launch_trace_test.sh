#!/usr/bin/env bash
# scripts/launch_trace/compare.sh on the repository's HEAD against itself: it builds the kernels
# once against the fake runtime, every one of the ten settings runs the driver to its end (a
# launch whose arguments the fake runtime misread crashed it for sessions, unseen) and comes out
# identical, with the same number of calls, and the diff file stays empty. Then its refusals.
set -u
source_dir=$1
script=$source_dir/scripts/launch_trace/compare.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash "$script" HEAD HEAD "$tmp/diff.txt" >"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?
((rc == 0)) || fail "HEAD against itself: exit $rc: $(tail -3 "$tmp/err.txt") $(tail -3 "$tmp/out.txt")"
[[ $(grep -c ' calls, identical$' "$tmp/out.txt") == 10 ]] || fail "ten identical settings: $(cat "$tmp/out.txt")"
counts=$(grep -o '[0-9]* calls' "$tmp/out.txt" | sort -u)
[[ $(wc -l <<<"$counts") == 1 && ${counts%% *} -gt 50000 ]] || fail "one call count, over 50000: $counts"
[[ -f $tmp/diff.txt && ! -s $tmp/diff.txt ]] || fail "the diff file is empty"

bash "$script" HEAD >/dev/null 2>"$tmp/err.txt"
(($? == 4)) && grep -q 'REV_A REV_B' "$tmp/err.txt" || fail "one argument: usage, exit 4"
bash "$script" HEAD no-such-revision-x >/dev/null 2>"$tmp/err.txt"
(($? == 4)) && grep -q "'no-such-revision-x' is not a revision" "$tmp/err.txt" || fail "bad revision"
bash "$script" HEAD HEAD "$tmp/no/such/diff.txt" >/dev/null 2>"$tmp/err.txt"
(($? == 4)) && grep -q 'no folder' "$tmp/err.txt" || fail "diff file in a missing folder"
echo "launch_trace: all checks passed"
