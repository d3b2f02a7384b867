#!/usr/bin/env bash
# Session 36: round 37b in results/NOTES.md, 16-bit caches in the token warp from two CTAs a SM to
# one wave (fitted on round 37, judged on this fresh run). Build first, here, from HEAD (bf34721):
#   scripts/build_kernel_experiments.sh --dist dist/s46 \
#     twa2c=results/h200/experiments/patches/token-warp-auto-two-ctas-a-sm.patch
#   (the base: dist/s45/rope-kv-bench copied to dist/s46/, HEAD's code)
#   tar -C dist -cf - s46/rope-kv-bench s46/exp-twa2c | xz -T2 -9 > dist/s46.tar.xz
# and call with carry ["dist/s46.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-auto-two-ctas-a-sm-cases.txt (19 cases), judged on the cases whose launch moved
# (AB_SUBSET=moved) at >= 3 % faster, no case more than 4 % slower; then the adopted build's
# matrix and sanitizer set ($OUT/c16.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa2c" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-two-ctas-a-sm-cases.txt \
  bash scripts/ab_call.sh dist/s46.tar.xz s46 c16
echo "ab_call done ($SECONDS s)"
exit 0
