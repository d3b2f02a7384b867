#!/usr/bin/env bash
# Session 26, call 3 (prepared; no device was lent after call 1): round 22 in results/NOTES.md, the
# decode role-major kernels' compact parameters. Build first, here, from HEAD:
#   scripts/build_kernel_experiments.sh --dist dist/s28c --base \
#     drp=results/h200/experiments/patches/decode-role-compact-params.patch
#   tar -C dist -cf - s28c | xz -T2 -9 > dist/s28c.tar.xz
# and call with carry ["dist/s28c.tar.xz"]: base = HEAD's kernels, exp-drp = base + the patch
# (built in session 28 at ede139b, whose kernels are 8447674's; session 26's s26c, built at b7ab219,
# is SASS-identical to it in every fused and pair kernel).
# The rule: two interleaved rounds over the 106 decode_roles / decode_half cases of the survey (N = 1
# and 128, nhd), judged on all of them at >= 3 % faster, no case more than 2 % slower; then on the
# adopted build its matrix, sanitizer set and seed table ($OUT/c3.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize seed" AB_ROUNDS=2 \
  AB_CASES=results/h200/wave23/calls/call3-cases.txt \
  bash scripts/ab_call.sh dist/s28c.tar.xz s28c c3
echo "ab_call done ($SECONDS s)"
exit 0
