#!/usr/bin/env bash
# Session 35: round 32 in results/NOTES.md, the token-warp kernel for mla:16 with a 16-bit cache.
# Build first, here, from HEAD (round 31b landed):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s38 --base twa=$P/token-warp-auto.patch \
#     twan=$P/token-warp-auto-neox.patch
#   tar -C dist -cf - s38/rope-kv-bench s38/exp-twa s38/exp-twan | xz -T2 -9 > dist/s38.tar.xz
# and call with carry ["dist/s38.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-auto-cases.txt (16 cases), each build judged on its patch's subset file (twa:
# the 12 auto mla:16 cases, twan: the 6 neox ones) at >= 3 % faster, no case more than 4 % slower.
# twa is preferred where both are adopted; NOTES then takes it only if its 6 gpt-j cases are
# faster than the base in geometric mean. Then the adopted build's matrix (4010 cases) and
# sanitizer set ($OUT/c7.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twa twan" \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-cases.txt \
  bash scripts/ab_call.sh dist/s38.tar.xz s38 c7
echo "ab_call done ($SECONDS s)"
exit 0
