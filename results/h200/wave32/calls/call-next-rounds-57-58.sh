#!/usr/bin/env bash
# Prepared in session 44 for the next session (results/NOTES.md, "For session 45": rounds 57 and
# 58, predictions and rules). Carry ["dist/w51.tar.xz"]: s83/ = HEAD's base and two experiments:
#   scripts/build_kernel_experiments.sh --dist dist/s83 --base \
#     ppr=results/h200/experiments/patches/strided-pingpong-row-major.patch \
#     pcf=results/h200/experiments/patches/neox-packed-cos-sin-flat.patch
#   tar -C dist -cf - s83 | xz -T2 -9 > dist/w51.tar.xz
# Judged on an H200 (the goals' card); on another card it runs the same and says which in its log.
# 1. Rounds 57 and 58 in one A/B over the union of their cases, each build on its own subset;
#    the adopted build's matrix and sanitizer.
# 2. On an H200, if time is left: the MLA profile (mla-ncu-h200.sh). $OUT/cn-mla.tar.gz
set -u
ln -sf w51.tar.xz dist/s83.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
cat results/h200/wave32/calls/pingpong-row-major-cases.txt \
  results/h200/wave32/calls/packed-cos-sin-flat-cases.txt >"$OUT/cases.txt"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_CASES="$OUT/cases.txt" \
  timeout 420 bash scripts/ab_call.sh dist/s83.tar.xz s83 cn
echo "rounds 57 and 58 done ($SECONDS s)"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ $card == *H200* ]] && ((SECONDS < 480)); then
  timeout 70 bash results/h200/wave32/calls/mla-ncu-h200.sh s83/rope-kv-bench "$OUT/cn-mla"
  tar -C "$OUT" -czf "$OUT/cn-mla.tar.gz" cn-mla && rm -rf "$OUT/cn-mla"
fi
exit 0
