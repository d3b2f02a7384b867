#!/usr/bin/env bash
# Session 30: round 22b in results/NOTES.md, the decode role-major kernels' compact parameters up
# to 5 CTAs a SM of the launch. Build first, here, from HEAD:
#   scripts/build_kernel_experiments.sh --dist dist/s30 --base \
#     drp5=results/h200/experiments/patches/decode-role-compact-few-ctas.patch
#   tar -C dist -cf - s30/rope-kv-bench s30/exp-drp5 | xz -T2 -9 > dist/s30.tar.xz
# and call with carry ["dist/s30.tar.xz"]: base = HEAD's kernels, exp-drp5 = base + the patch.
# The rule (round 22's): two interleaved rounds over the same 106 decode_roles / decode_half cases,
# judged on all of them at >= 3 % faster, no case more than 2 % slower; then on the adopted build
# its matrix, sanitizer set and seed table ($OUT/c6.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize seed" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave23/calls/call3-cases.txt \
  bash scripts/ab_call.sh dist/s30.tar.xz s30 c6
echo "ab_call done ($SECONDS s)"
exit 0
