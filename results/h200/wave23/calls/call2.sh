#!/usr/bin/env bash
# Session 26, call 2: round 21 in results/NOTES.md, the pair's compact parameters (issue 12 item
# 5: round 20's lever in the pair's kernels). Build first, here, from HEAD (the patch applies from
# 8215ae2 on, where tests/decode_call.h landed; dist/s26b.tar.xz, built in session 26 at 224eab8
# with the same reference/ code, serves as well if this machine still has it):
#   scripts/build_kernel_experiments.sh --dist dist/s26b --base \
#     pp=results/h200/experiments/patches/pair-compact-params.patch
#   tar -C dist -cf - s26b | xz -T2 -9 > dist/s26b.tar.xz
# and call with carry ["dist/s26b.tar.xz"]: base = HEAD's kernels, exp-pp = base + the patch.
# AB_JUDGE=pair: the pair judged on the 33 decode cases (the patch's .subset.txt) at >= 1 %
# faster, no case of the 47 more than 2 % slower; the fused kernel judged with no gain asked.
# On an adopted build: its matrix, sanitizer set, seed table and PDL table ($OUT/c2.tar.gz).
set -u
AB_JUDGE=pair ADOPTED_STEPS="matrix sanitize seed pdl" AB_ROUNDS=2 \
  AB_CASES=results/h200/wave23/calls/call2-cases.txt \
  bash scripts/ab_call.sh dist/s26b.tar.xz s26b c2
echo "ab_call done ($SECONDS s)"
exit 0
