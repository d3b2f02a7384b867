#!/usr/bin/env bash
# Session 33: round 28b in results/NOTES.md, the token-warp kernel for gpt-j fp8 mla:16 only.
# Build first, here, from HEAD (the patch applies from 2026-12-06's commit that taught the report
# reader the name token_warp; the kernels are 8695696's):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s33b --base twg=$P/mla-token-warp-gptj-fp8.patch
#   tar -C dist -cf - s33b/rope-kv-bench s33b/exp-twg | xz -T2 -9 > dist/s33b.tar.xz   # ~1.7 MiB
#   (twg6 = mla-token-warp-gptj-fp8-bound6.patch was left out in session 33 for budget; a
#   stripped rkv_tests does not fit beside the builds: the tree limit, results/NOTES.md)
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
