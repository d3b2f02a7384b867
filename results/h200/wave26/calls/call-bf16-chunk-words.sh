#!/usr/bin/env bash
# Session 34: round 31 in results/NOTES.md, bf16 chunks converted from their packed 32-bit words.
# Build first, here: the experiment from HEAD (e73e25f), the base being dist/s35's (e18d7e2,
# whose kernels' SASS is HEAD's: e73e25f's token_rows refactor changed none):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s36 cw=$P/bf16-chunk-words.patch
#   cp dist/s35/rope-kv-bench dist/s36/rope-kv-bench
#   tar -C dist -cf - s36/rope-kv-bench s36/exp-cw | xz -T2 -9 > dist/s36.tar.xz
# and call with carry ["dist/s36.tar.xz"]. The rule, fixed before the run: two interleaved rounds
# over bf16-chunk-words-cases.txt (20 cases), judged on the patch's subset file (all 20: the 18
# bf16 cases, every kernel family whose SASS the patch changes, and the two fp16 token-warp
# cases, whose SASS it reorders) at >= 3 % faster, no case more than 4 % slower; then the adopted build's matrix (4010 cases) and sanitizer set ($OUT/c5.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="cw" \
  AB_CASES=results/h200/wave26/calls/bf16-chunk-words-cases.txt \
  bash scripts/ab_call.sh dist/s36.tar.xz s36 c5
echo "ab_call done ($SECONDS s)"
exit 0
