#!/usr/bin/env bash
# Session 33: round 28b in results/NOTES.md, the token-warp kernel for gpt-j fp8 mla:16 only.
# Build first, here, from 9045775 (HEAD's kernels):
#   P=results/h200/experiments/patches
#   mkdir -p dist/s33b && cp dist/s32g/rope-kv-bench dist/s33b/   # HEAD's kernels, the base
#   scripts/build_kernel_experiments.sh --dist dist/s33b twg=$P/mla-token-warp-gptj-fp8.patch \
#     twg6=$P/mla-token-warp-gptj-fp8-bound6.patch
#   cp <the round's rkv_tests, stripped> dist/s33b/
#   tar -C dist -cf - s33b | xz -T2 -9 > dist/s33b.tar.xz
# and call with carry ["dist/s33b.tar.xz"]. The rule, fixed before the run: two interleaved
# rounds over mla-token-warp-gptj-cases.txt (15 cases), judged on the 10 moved cases of the
# patches' subset files at >= 3 % faster, no case more than 4 % slower; then the adopted build's
# matrix (4010 cases) and sanitizer set ($OUT/c2.tar.gz). Then the GPU tests of the candidate
# (s33b/rkv_tests: twg's kernels and its tests) into $OUT/tests.
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twg" \
  AB_CASES=results/h200/wave26/calls/mla-token-warp-gptj-cases.txt \
  bash scripts/ab_call.sh dist/s33b.tar.xz s33b c2
echo "ab_call done ($SECONDS s)"
mkdir -p "$OUT/tests"
[[ -x s33b/rkv_tests ]] && BIN=$(pwd)/s33b OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests
echo "tests done ($SECONDS s)"
exit 0
