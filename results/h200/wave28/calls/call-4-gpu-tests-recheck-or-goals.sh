#!/usr/bin/env bash
# Session 38, call 4: round 44b's landing (strided_rotating) on whatever card comes. Build first,
# here, from HEAD:
#   bash scripts/test.sh    (builds build/rope-kv-bench and build/rkv_tests)
#   mkdir -p dist/s62 && strip -o dist/s62/rope-kv-bench build/rope-kv-bench \
#     && strip -o dist/s62/rkv_tests build/rkv_tests
#   tar -C dist -cf - s62 | xz -T2 -9 > dist/s62.tar.xz
# and call with carry ["dist/s62.tar.xz"].
# - an H200: the goals of the same build ($OUT/goals.tar.gz, about 450 s), nothing else;
# - another card: the GPU tests ($OUT/tests), the sanitizer set ($OUT/head), then the H100
#   survey's 38 cases nearest 1.0 and the pinned 16x2x256 gpt-j cases of never-slower.json at
#   2048 and 16k, with never-slower.json's timing ($OUT/recheck/recheck.json), to see what the
#   landing moved.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
tar -xJf dist/s62.tar.xz || { echo "cannot unpack dist/s62.tar.xz"; exit 4; }
chmod +x s62/rkv_tests s62/rope-kv-bench
if [[ $card == *H200* ]]; then
  GOALS_TARBALL=dist/s62.tar.xz GOALS_DIR=s62 bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
  exit 0
fi
BIN=$(pwd)/s62 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests
BIN=$(pwd)/s62 OUT=$OUT/head timeout 200 bash scripts/device_run.sh sanitize
echo "head done ($SECONDS s)"
mkdir -p $OUT/recheck
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave28/calls/never-slower-recheck-rotating-cases.txt
timeout $((590 - SECONDS)) s62/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=38 --json $OUT/recheck/recheck.json >$OUT/recheck/log.txt 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
