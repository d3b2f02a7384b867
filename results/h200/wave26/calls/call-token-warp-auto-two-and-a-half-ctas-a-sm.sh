#!/usr/bin/env bash
# Session 36: round 37c in results/NOTES.md, 16-bit caches in the token warp from two and a half CTAs a SM to
# one wave (fitted on rounds 37 and 37b, judged on this fresh run). Build first, here, from HEAD (bf34721):
#   scripts/build_kernel_experiments.sh --dist dist/s47 \
#     twa25=results/h200/experiments/patches/token-warp-auto-two-and-a-half-ctas-a-sm.patch
#   (the base: dist/s45/rope-kv-bench copied to dist/s47/, HEAD's code)
#   tar -C dist -cf - s47/rope-kv-bench s47/exp-twa25 | xz -T2 -9 > dist/s47.tar.xz
# and call with carry ["dist/s47.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-auto-two-and-a-half-ctas-a-sm-cases.txt (20 cases), judged on the cases whose launch moved
# (AB_SUBSET=moved) at >= 3 % faster, no case more than 4 % slower; then the adopted build's
# matrix and sanitizer set ($OUT/c17.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa25" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-two-and-a-half-ctas-a-sm-cases.txt \
  bash scripts/ab_call.sh dist/s47.tar.xz s47 c17
echo "ab_call done ($SECONDS s)"
exit 0
