#!/usr/bin/env bash
# scripts/device_gpu_tests.sh in a scratch tree with a stand-in test binary: the source path is
# linked to the working tree, the packed reports are unpacked where the binary looks, the binary's
# exit passes through, its JSON and output come back packed as NAME.tar.gz; bad arguments exit 4.
#   tests/device_gpu_tests_test.sh REPO_ROOT
set -uo pipefail
script=$1/scripts/device_gpu_tests.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # check CONDITION_EXIT MESSAGE
  if [[ $1 != 0 ]]; then echo "FAIL: $2"; fail=1; fi
}
tree=$work/tree
mkdir -p "$tree/tests" "$tree/results/h200/wave9" "$work/out"
printf 'set(RKV_PACKED_REPORTS results/h200/a.json.gz\n  results/h200/wave9/b.json.gz)\n' \
  >"$tree/tests/CMakeLists.txt"
echo '{"a": 1}' | gzip >"$tree/results/h200/a.json.gz"
echo '{"b": 2}' | gzip >"$tree/results/h200/wave9/b.json.gz"
# The stand-in: fails unless both reports are unpacked under the source path, writes its JSON
# where --gtest_output says, and exits with FAKE_EXIT.
cat >"$work/fake_tests" <<'FAKE'
#!/usr/bin/env bash
for arg; do [[ $arg == --gtest_output=json:* ]] && json=${arg#--gtest_output=json:}; done
grep -q '"a": 1' "$SRC/build/unpacked/results/h200/a.json" &&
  grep -q '"b": 2' "$SRC/build/unpacked/results/h200/wave9/b.json" ||
  { echo "reports not unpacked"; exit 9; }
echo '{"tests": 3}' >"$json"
echo "[  PASSED  ] 3 tests."
exit "$FAKE_EXIT"
FAKE
src=$work/built/at/src
for want in 0 1; do
  rm -rf "$work/out"/*
  out=$(cd "$tree" && SRC=$src FAKE_EXIT=$want OUT=$work/out bash "$script" "$work/fake_tests" "$src" run 2>&1)
  rc=$?
  check $((rc != want)) "exit $rc, want $want: $out"
  check $([[ -L $src ]]; echo $?) "the source path is not a link to the tree"
  listing=$(tar -tzf "$work/out/run.tar.gz" 2>/dev/null | sort | tr '\n' ' ')
  check $([[ $listing == "run/ run/gpu-tests.json run/gpu-tests.txt " ]]; echo $?) "packed: '$listing'"
  check $([[ ! -e $work/out/run ]]; echo $?) "the unpacked folder was left in OUT"
  check $([[ $out == *"run exit $want"* ]]; echo $?) "no exit line: $out"
done
for args in "" "$work/fake_tests $src" "$work/nope $src run" "$work/fake_tests $src bad/name"; do
  # shellcheck disable=SC2086 # the arguments split on purpose
  (cd "$tree" && OUT=$work/out bash "$script" $args >/dev/null 2>&1)
  rc=$?
  check $((rc != 4)) "device_gpu_tests '$args': exit $rc, want 4"
done
(cd "$tree" && bash "$script" "$work/fake_tests" "$src" run >/dev/null 2>&1)
rc=$?
check $((rc != 4)) "without OUT: exit $rc, want 4"
((fail == 0)) && echo "device_gpu_tests_test: all checks passed"
exit $fail
