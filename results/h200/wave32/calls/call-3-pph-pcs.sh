#!/usr/bin/env bash
# Session 44, call 3: call 2 slimmed to the device time left after six failed starts (675 s, of
# which a start takes about 300). Carry ["dist/w49.tar.xz"]: s81/ = dist/s80 less exp-ppb (the
# base, exp-pph, exp-pcs), packed by
#   mkdir dist/s81 && cp -r dist/s80/{rope-kv-bench,exp-pph,exp-pcs} dist/s81/
#   tar -C dist -cf - s81 | xz -T2 -9 > dist/w49.tar.xz
# 1. Rounds 55b (pph only) and 56 by their rules, over the union of their cases; no matrix or
#    sanitizer this call, only the smoke validation (an adopted build takes them, with the GPU
#    tests, before it lands).
# 2. On an H200 only: ncu of mla:16 at 65k against the floor probe. $OUT/c3-mla.tar.gz
set -u
ln -sf w49.tar.xz dist/s81.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
ADOPTED_STEPS="smoke" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave32/calls/rounds-55c-56-cases.txt \
  timeout 290 bash scripts/ab_call.sh dist/s81.tar.xz s81 c81
echo "rounds 55b (pph) and 56 done ($SECONDS s)"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ $card == *H200* ]] && ((SECONDS < 220)); then
  timeout 70 bash results/h200/wave32/calls/mla-ncu-h200.sh s81/rope-kv-bench "$OUT/c3-mla"
  tar -C "$OUT" -czf "$OUT/c3-mla.tar.gz" c3-mla && rm -rf "$OUT/c3-mla"
fi
exit 0
