#!/usr/bin/env bash
# Session 33: round 28 in results/NOTES.md, MLA in one warp a token (rope_kv_fused_token_warp_kernel).
# Build first, here, from HEAD (8695696 + configs/full-matrix.json's MLA full-rotary cases):
#   P=results/h200/experiments/patches
#   mkdir -p dist/s33 && cp dist/s32g/rope-kv-bench dist/s33/   # HEAD's kernels, the base
#   scripts/build_kernel_experiments.sh --dist dist/s33 tw=$P/mla-token-warp.patch \
#     tw1=$P/mla-token-warp-one-row.patch
#   tar -C dist -cf - s33/rope-kv-bench s33/exp-tw s33/exp-tw1 | xz -T2 -9 > dist/s33.tar.xz
# and call with carry ["dist/s33.tar.xz"]. The rule, fixed before the run: two interleaved
# rounds over mla-token-warp-cases.txt (35 cases), judged on the 24 moved cases of the patches'
# subset files at >= 3 % faster, no case more than 4 % slower; then the adopted build's matrix
# (4010 cases with the new MLA ones) and sanitizer set ($OUT/c1.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="tw tw1" \
  AB_CASES=results/h200/wave26/calls/mla-token-warp-cases.txt \
  bash scripts/ab_call.sh dist/s33.tar.xz s33 c1
echo "ab_call done ($SECONDS s)"
exit 0
