#!/usr/bin/env bash
# Session 35: round 33 in results/NOTES.md, the token-warp kernel for mla:16 with partial rotary
# (rot = 32) and an fp8 cache. Build first, here (the base is dist/s38's, HEAD's kernels and CLI):
#   mkdir -p dist/s39 && cp dist/s38/rope-kv-bench dist/s39/
#   scripts/build_kernel_experiments.sh --dist dist/s39 \
#     twp=results/h200/experiments/patches/token-warp-partial-rotary.patch
#   tar -C dist -cf - s39/rope-kv-bench s39/exp-twp | xz -T2 -9 > dist/s39.tar.xz
# and call with carry ["dist/s39.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-partial-rotary-cases.txt (18 cases), judged on the patch's subset (the 13 moved
# cases) at >= 3 % faster, no case more than 4 % slower; then the adopted build's matrix (4010
# cases, with mla:16 rot = 32 fp8 at 4099 tokens, which the new route takes) and sanitizer set
# ($OUT/c9.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twp" \
  AB_CASES=results/h200/wave26/calls/token-warp-partial-rotary-cases.txt \
  bash scripts/ab_call.sh dist/s39.tar.xz s39 c9
echo "ab_call done ($SECONDS s)"
exit 0
