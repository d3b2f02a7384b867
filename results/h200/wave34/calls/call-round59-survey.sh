#!/usr/bin/env bash
# Session 46: round 59's A/B (results/NOTES.md, "Round 59"), then on an H200 the MLA profile and
# never-slower shards of round 58's landing. Carry ["dist/w54.tar.xz", "dist/w52.tar.xz"]:
#   w54: dist/s85 (base a HEAD build, exp-pp16), from
#     scripts/build_kernel_experiments.sh --dist dist/s85 --base \
#       pp16=results/h200/experiments/patches/pingpong-fp16-row-major.patch
#     tar -C dist -cf - s85 | xz -T2 -9 > dist/w54.tar.xz
#   w52: s84/rope-kv-bench of b64d8b3 (wave33/calls/call-landing-checks.sh says how).
#   [AB=0] [MLA=0] call-round59-survey.sh FIRST LAST
# 1. Any card (AB=1): the A/B, two rounds, the matrix and sanitizer on the adopted build
#    ($OUT/pp16.tar.gz; about 200 s on an H100).
# 2. An H200: the MLA profile ($OUT/mla.tar.gz, about 60 s) and never-slower shards FIRST..LAST of 8
#    ($OUT/ns-K.tar.gz, 60-80 s each).
set -u
first=${1:-0} last=${2:--1}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ ${AB:-1} == 1 && -f dist/w54.tar.xz ]]; then
  ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
    AB_CASES=results/h200/wave34/calls/pingpong-fp16-cases.txt \
    timeout 400 bash scripts/ab_call.sh dist/w54.tar.xz s85 pp16
  echo "ab done ($SECONDS s)"
fi
[[ -f dist/w52.tar.xz && $card == *H200* ]] || exit 0
tar -xJf dist/w52.tar.xz && chmod +x s84/rope-kv-bench
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
