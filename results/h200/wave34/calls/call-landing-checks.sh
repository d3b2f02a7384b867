#!/usr/bin/env bash
# Session 46's first calls (results/NOTES.md, "Session 46"): the checks round 58's landing owes,
# and the SASS census. Carry ["dist/w52.tar.xz", "dist/w53.tar.xz"] (s84/rope-kv-bench and
# s84t/rkv_tests of b64d8b3, stripped; how to rebuild them: wave33/calls/call-landing-checks.sh).
#   [MLA=0] [SASS=0] call-landing-checks.sh FIRST LAST
# 1. Any card: the GPU tests of the landing ($OUT/gpu-tests.tar.gz, about 30 s) and the SASS census
#    of the bench binary ($OUT/sass.tar.gz, sass-census.sh).
# 2. An H200: the MLA profile ($OUT/mla.tar.gz, about 60 s), then never-slower shards FIRST..LAST of
#    8 (about 60-80 s each; $OUT/ns-K.tar.gz).
set -u
here=$(cd "$(dirname "$0")" && pwd)
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
[[ -f dist/w52.tar.xz ]] || exit 0
tar -xJf dist/w52.tar.xz && chmod +x s84/rope-kv-bench
if [[ ${SASS:-1} == 1 ]]; then
  timeout 120 bash "$here/sass-census.sh" s84/rope-kv-bench "$OUT/sass"
  echo "sass done ($SECONDS s)"
  tar -C "$OUT" -cJf "$OUT/sass.tar.xz" sass && rm -rf "${OUT:?}/sass"
fi
[[ $card == *H200* ]] || exit 0
if [[ ${MLA:-1} == 1 ]]; then
  timeout 80 bash results/h200/wave32/calls/mla-ncu-h200.sh s84/rope-kv-bench "$OUT/mla"
  tar -C "$OUT" -czf "$OUT/mla.tar.gz" mla && rm -rf "${OUT:?}/mla"
  echo "mla done ($SECONDS s)"
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
