#!/usr/bin/env bash
# Session 42, call 12, carry ["dist/w41.tar.xz"]: t76/ (round 53's landing on 36a5082,
# `bash scripts/test.sh` there, then rope-kv-bench and rkv_tests stripped):
#   tar -C dist -cf - t76 | xz -T2 -9 > dist/w41.tar.xz
# Run only if call 11 adopted round 53. On an H100 (another card than an H200): the landing's GPU
# tests and the never-slower recheck of the 4 survey cases it moves, packed into
# $OUT/call12.tar.gz (call 10's loose files were more than the device tool brings back). On an
# H200: nothing (its goals need s75, which this carry lacks): exit 3 without work.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
echo "card: $card"
[[ $card == *H200* ]] && { echo "an H200: this call's checks are H100 work; nothing run"; exit 3; }
work=$OUT/call12
mkdir -p "$work"
trap 'tar -C "$OUT" -czf "$OUT/call12.tar.gz" call12 && rm -rf "$work"' EXIT
[[ -x t76/rkv_tests ]] || tar -xJf dist/w41.tar.xz || { echo "cannot unpack t76"; exit 4; }
chmod +x t76/rkv_tests t76/rope-kv-bench
rm -rf /tmp/wt53  # the tests' build tree link, if a warm machine kept one (device_run.sh makes it)
BIN=$(pwd)/t76 OUT=$work/t76 timeout 120 bash scripts/device_run.sh tests
echo "t76 tests done ($SECONDS s)"
mkdir -p "$work/recheck"
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/phased-flat-recheck-cases.txt
timeout 120 t76/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=42 --json "$work/recheck/recheck.json" >"$work/recheck/log.txt" 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
