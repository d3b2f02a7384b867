#!/usr/bin/env bash
# Session 36: round 38 in results/NOTES.md, neox with a 16-bit cache in the token warp from two
# CTAs a SM (gpt-j stays at two and a half; fitted on round 37b, judged on this fresh run). Build
# first, here, from HEAD:
#   scripts/build_kernel_experiments.sh --dist dist/s49 \
#     twan2c=results/h200/experiments/patches/token-warp-auto-neox-two-ctas-a-sm.patch
#   (the base: dist/s48/rope-kv-bench copied to dist/s49/, 2beef31's build)
#   tar -C dist -cf - s49/rope-kv-bench s49/exp-twan2c | xz -T2 -9 > dist/s49.tar.xz
# and call with carry ["dist/s49.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-auto-neox-two-ctas-a-sm-cases.txt (13 cases), judged on the cases whose launch
# moved (AB_SUBSET=moved) at >= 3 % faster, no case more than 4 % slower; then the adopted build's
# matrix and sanitizer set ($OUT/c18.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twan2c" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-neox-two-ctas-a-sm-cases.txt \
  bash scripts/ab_call.sh dist/s49.tar.xz s49 c18
echo "ab_call done ($SECONDS s)"
exit 0
