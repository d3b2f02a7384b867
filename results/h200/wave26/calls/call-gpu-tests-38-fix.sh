#!/usr/bin/env bash
# Session 36: the GPU tests again after the launch query's gpt-j 1280-token case was corrected
# ("flat", as the device reported in gpu-tests-38; the test had guessed "wide"). Build first, here:
#   cmake --build build --target rkv_tests && mkdir -p dist/s51 && cp dist/s50/rope-kv-bench dist/s51/
#   strip -o dist/s51/rkv_tests build/rkv_tests && tar -C dist -cf - s51 | xz -T2 -9 > dist/s51.tar.xz
# and call with carry ["dist/s51.tar.xz"]. Writes $OUT/tests.
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
tar -xJf dist/s51.tar.xz || { echo "cannot unpack dist/s51.tar.xz"; exit 4; }
chmod +x s51/rkv_tests s51/rope-kv-bench
BIN=$(pwd)/s51 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests >/dev/null
tail -3 "$OUT/tests/log.txt"
exit 0
