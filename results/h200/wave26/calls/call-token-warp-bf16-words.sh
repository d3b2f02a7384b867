#!/usr/bin/env bash
# Session 34: round 31b in results/NOTES.md, bf16 chunks read by their words in the token-warp
# kernels only. Build first, here: the experiment from HEAD, the base being dist/s35's (e18d7e2,
# whose kernels' SASS is HEAD's):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s37 tww=$P/token-warp-bf16-words.patch
#   cp dist/s35/rope-kv-bench dist/s37/rope-kv-bench
#   tar -C dist -cf - s37/rope-kv-bench s37/exp-tww | xz -T2 -9 > dist/s37.tar.xz
# and call with carry ["dist/s37.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over token-warp-bf16-words-cases.txt (14 cases), judged on the patch's subset file (the 10 bf16
# token-warp cases, the only kernels whose SASS it changes) at >= 3 % faster, no case more than
# 4 % slower; then the adopted build's matrix (4010 cases) and sanitizer set ($OUT/c6.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="tww" \
  AB_CASES=results/h200/wave26/calls/token-warp-bf16-words-cases.txt \
  bash scripts/ab_call.sh dist/s37.tar.xz s37 c6
echo "ab_call done ($SECONDS s)"
exit 0
