#!/usr/bin/env bash
# On the GPU box: every GPU test (Gpu*, */Gpu*, Pdl*) of a test binary built here and carried,
# such as a prepared landing's (built in /work/main or in a worktree of
# scripts/build_kernel_experiments.sh):
#   OUT=DIR scripts/device_gpu_tests.sh RKV_TESTS SOURCE_DIR NAME
# The binary reads the tree at the path it was built from (RKV_SOURCE_DIR, given as SOURCE_DIR)
# and the packed reports of tests/CMakeLists.txt's RKV_PACKED_REPORTS unpacked under
# SOURCE_DIR/build/unpacked. Both are made here from the call's working tree: SOURCE_DIR becomes
# a link to it where it does not exist. Writes $OUT/NAME.tar.gz (NAME/gpu-tests.json and
# gpu-tests.txt), at most 300 s. Exit: the test binary's (124 past the bound); 4 on a bad argument.
set -u
if (($# != 3)) || [[ -z ${OUT:-} ]]; then
  echo "usage: OUT=DIR scripts/device_gpu_tests.sh RKV_TESTS SOURCE_DIR NAME" >&2
  exit 4
fi
tests=$1 source=$2 name=$3
[[ -f $tests ]] || { echo "device_gpu_tests: no test binary '$tests'" >&2; exit 4; }
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] ||
  { echo "device_gpu_tests: NAME '$name' is not letters, digits, '.', '_', '-'" >&2; exit 4; }
chmod +x "$tests"
if [[ ! -e $source ]]; then
  mkdir -p "$(dirname "$source")" && ln -s "$PWD" "$source" ||
    { echo "device_gpu_tests: cannot link '$source' to the working tree" >&2; exit 4; }
fi
for f in $(sed -n '/set(RKV_PACKED_REPORTS/,/)/p' tests/CMakeLists.txt | grep -o 'results/[^ )]*\.gz'); do
  mkdir -p "$source/build/unpacked/$(dirname "$f")" &&
    gzip -dc "$f" >"$source/build/unpacked/${f%.gz}"
done
mkdir -p "$OUT/$name"
timeout 300 "$tests" --gtest_filter='Gpu*:*/Gpu*:Pdl*' \
  --gtest_output="json:$OUT/$name/gpu-tests.json" >"$OUT/$name/gpu-tests.txt" 2>&1
rc=$?
echo "device_gpu_tests: $name exit $rc"
tail -3 "$OUT/$name/gpu-tests.txt"
tar -C "$OUT" -czf "$OUT/$name.tar.gz" "$name" && rm -rf "${OUT:?}/$name"
exit $rc
