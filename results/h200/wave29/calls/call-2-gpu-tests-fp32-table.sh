#!/usr/bin/env bash
# Session 39, call 2 (carry ["dist/t66.tar.xz"]: HEAD's rkv_tests and rope-kv-bench, stripped:
# `bash scripts/test.sh`, then `strip -o dist/t66/X build/X` for both, then
# `tar -C dist -cf - t66 | xz -T2 -9 > dist/t66.tar.xz`). The GPU tests, with the ten new
# validation cases of neox with an fp32 table on each unit kernel and their routes, and the
# matrix with its 48 new cases of the same ($OUT/t66.tar.gz: gtest.json, validate-full-matrix.json,
# log.txt). No kernel change: no sanitizer.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "card: $card"
tar -xJf dist/t66.tar.xz || { echo "cannot unpack dist/t66.tar.xz"; exit 4; }
chmod +x t66/rkv_tests t66/rope-kv-bench
BIN=$(pwd)/t66 OUT=$OUT/t66 timeout 280 bash scripts/device_run.sh tests matrix
tar -C "$OUT" -czf "$OUT/t66.tar.gz" t66 && rm -rf "${OUT:?}/t66"
echo "done ($SECONDS s)"
exit 0
