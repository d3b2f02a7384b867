#!/usr/bin/env bash
# Prepared in session 45 for the next session (results/NOTES.md, "For session 46"): the checks
# round 58's landing (39e07e4) still owes. Carry ["dist/w52.tar.xz", "dist/w53.tar.xz"]:
#   s84/rope-kv-bench and s84t/rkv_tests of b64d8b3 (kernels as 39e07e4), stripped, built by
#   `bash scripts/test.sh`, then
#   strip -o dist/s84/rope-kv-bench build/rope-kv-bench; strip -o dist/s84t/rkv_tests build/rkv_tests
#   tar -C dist -cf - s84 | xz -9 > dist/w52.tar.xz; tar -C dist -cf - s84t | xz -9 > dist/w53.tar.xz
# If both are over the call's size limit, carry w53 alone first, then w52: a carry left out skips
# its part.
#   [MLA=0] call-landing-checks.sh [FIRST LAST]
# e.g. the first call (both carries, 7 files back, about 450 s on an H200):
#   call-landing-checks.sh 1 5     then the second (carry w52 alone):  MLA=0 ... 6 8
# 1. Any card: the GPU tests of the landing ($OUT/gpu-tests.tar.gz; about 30 s).
# 2. An H200: the MLA profile (mla-ncu-h200.sh, about 60 s; $OUT/mla.tar.gz), then never-slower
#    shards FIRST..LAST of 8 (about 60-80 s each; $OUT/ns-K.tar.gz, each packed as it ends).
set -u
first=${1:-0} last=${2:--1}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ -f dist/w53.tar.xz ]]; then
  tar -xJf dist/w53.tar.xz && chmod +x s84t/rkv_tests
  mkdir -p "$OUT/gpu-tests"
  timeout 240 s84t/rkv_tests --gtest_filter='Gpu*:*/Gpu*:Pdl*' \
    --gtest_output="json:$OUT/gpu-tests/gpu-tests.json" >"$OUT/gpu-tests/gpu-tests.txt" 2>&1
  echo "gpu tests: exit $? ($SECONDS s)"
  tail -3 "$OUT/gpu-tests/gpu-tests.txt"
  tar -C "$OUT" -czf "$OUT/gpu-tests.tar.gz" gpu-tests && rm -rf "${OUT:?}/gpu-tests"
fi
[[ -f dist/w52.tar.xz && $card == *H200* ]] || exit 0
tar -xJf dist/w52.tar.xz && chmod +x s84/rope-kv-bench
if [[ ${MLA:-1} == 1 ]]; then
  timeout 80 bash results/h200/wave32/calls/mla-ncu-h200.sh s84/rope-kv-bench "$OUT/mla"
  tar -C "$OUT" -czf "$OUT/mla.tar.gz" mla && rm -rf "${OUT:?}/mla"
fi
bin=$(cd s84 && pwd)
for ((k = first; k >= 1 && k <= last; k++)); do
  mkdir -p "$OUT/ns$k"
  BIN=$bin OUT=$OUT/ns$k NS_SHARD=$k NS_SHARDS=8 STEP_TIMEOUT=120 \
    bash scripts/device_run.sh never-slower >/dev/null 2>&1
  tar -C "$OUT" -czf "$OUT/ns-$k.tar.gz" "ns$k" && rm -rf "${OUT:?}/ns$k"
  echo "shard $k: ($SECONDS s)"
done
exit 0
