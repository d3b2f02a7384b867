#!/usr/bin/env bash
# Session 44, call 2. Carry ["dist/w48.tar.xz"]: s80/ = HEAD's base (dist/s79's, the kernels of
# 0ba3d48, unchanged since) and three experiments built by
#   scripts/build_kernel_experiments.sh --dist dist/s80 \
#     ppb=results/h200/experiments/patches/strided-pingpong-bounded.patch \
#     pph=results/h200/experiments/patches/strided-pingpong-fp16.patch \
#     pcs=results/h200/experiments/patches/neox-packed-cos-sin-h200.patch
#   cp dist/s79/rope-kv-bench dist/s80/ && tar -C dist -cf - s80 | xz -T2 -9 > dist/w48.tar.xz
# 1. Rounds 55b and 56 (results/NOTES.md: predictions and rules), one A/B over the union of their
#    cases (rounds-55b-56-cases.txt); each build judged on its own subset. Any card.
# 2. On an H200 only: ncu of mla:16 at 65k against the floor probe (mla-ncu-h200.sh). $OUT/c2-mla.tar.gz
set -u
ln -sf w48.tar.xz dist/s80.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave32/calls/rounds-55b-56-cases.txt \
  timeout 500 bash scripts/ab_call.sh dist/s80.tar.xz s80 c80
echo "rounds 55b and 56 done ($SECONDS s)"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ $card == *H200* ]] && ((SECONDS < 520)); then
  timeout 70 bash results/h200/wave32/calls/mla-ncu-h200.sh s80/rope-kv-bench "$OUT/c2-mla"
  tar -C "$OUT" -czf "$OUT/c2-mla.tar.gz" c2-mla && rm -rf "$OUT/c2-mla"
fi
exit 0
