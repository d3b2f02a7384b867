#!/usr/bin/env bash
# Session 32: round 22b (results/NOTES.md, "Session 30 round 22b") rebuilt on HEAD after round 24
# landed, then Nsight Compute profiles of the MLA launches furthest below the floor, on HEAD's
# kernels. Build first, here, from HEAD:
#   scripts/build_kernel_experiments.sh --dist dist/s32 --base \
#     drp5=results/h200/experiments/patches/decode-role-compact-few-ctas.patch
#   tar -C dist -cf - s32/rope-kv-bench s32/exp-drp5 | xz -T2 -9 > dist/s32.tar.xz
# and call with carry ["dist/s32.tar.xz"]. The A/B's rule is round 22b's: two interleaved rounds
# over the 106 decode_roles / decode_half cases, >= 3 % faster, no case more than 2 % slower; then
# the adopted build's matrix and sanitizer set ($OUT/c8.tar.gz). The profiles: $OUT/ncu/.
set -u
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave23/calls/call3-cases.txt \
  bash scripts/ab_call.sh dist/s32.tar.xz s32 c8
echo "ab_call done ($SECONDS s)"
NCU_CASES='bf16|fp8_e4m3|mla:16|neox|nhd|N=16384;bf16|fp8_e4m3|mla:16|gptj|nhd|N=16384;bf16|auto|mla:16|neox|nhd|N=16384' \
  STEP_TIMEOUT=150 BIN=$(pwd)/s32 OUT=$OUT/ncu bash scripts/device_run.sh ncu
echo "ncu done ($SECONDS s)"
exit 0
