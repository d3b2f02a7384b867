#!/usr/bin/env bash
# Session 36: the GPU tests and sanitizer set of round 38's landing (5fe7530), on any card; then,
# only on an H200, the goals of the same build. Build first, here, from HEAD:
#   bash scripts/test.sh    (builds build/rope-kv-bench and build/rkv_tests)
#   mkdir -p dist/s50 && strip -o dist/s50/rope-kv-bench build/rope-kv-bench \
#     && strip -o dist/s50/rkv_tests build/rkv_tests
#   tar -C dist -cf - s50 | xz -T2 -9 > dist/s50.tar.xz
# and call with carry ["dist/s50.tar.xz"]. Writes $OUT/tests, $OUT/head (sanitizer.log) and, on an
# H200, $OUT/goals.tar.gz.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
tar -xJf dist/s50.tar.xz || { echo "cannot unpack dist/s50.tar.xz"; exit 4; }
chmod +x s50/rkv_tests s50/rope-kv-bench
BIN=$(pwd)/s50 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests
BIN=$(pwd)/s50 OUT=$OUT/head timeout 200 bash scripts/device_run.sh sanitize
echo "head done ($SECONDS s)"
if [[ $card == *H200* ]]; then
  GOALS_TARBALL=dist/s50.tar.xz GOALS_DIR=s50 bash results/h200/wave24/calls/goals.sh
  echo "goals done ($SECONDS s)"
fi
exit 0
