#!/usr/bin/env bash
# Session 36: the GPU tests again with fp32 validation cases of the 16-bit token-warp band
# (gpt-j 2500 and neox 1400 tokens). Build first, here:
#   cmake --build build --target rkv_tests && mkdir -p dist/s53 && cp dist/s50/rope-kv-bench dist/s53/
#   strip -o dist/s53/rkv_tests build/rkv_tests && tar -C dist -cf - s53 | xz -T2 -9 > dist/s53.tar.xz
# and call with carry ["dist/s53.tar.xz"]. Writes $OUT/tests.
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
tar -xJf dist/s53.tar.xz || { echo "cannot unpack dist/s53.tar.xz"; exit 4; }
chmod +x s53/rkv_tests s53/rope-kv-bench
BIN=$(pwd)/s53 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests >/dev/null
tail -3 "$OUT/tests/log.txt"
exit 0
