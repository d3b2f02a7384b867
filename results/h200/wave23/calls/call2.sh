#!/usr/bin/env bash
# Session 26, call 2: round 21 in results/NOTES.md, the pair's compact parameters (issue 12 item
# 5: round 20's lever in the pair's kernels). Build first, here, from HEAD (the patch applies from
# 8215ae2 on, where tests/decode_call.h landed; dist/s28b.tar.xz, built in session 28 at ede139b,
# serves if this machine still has it, and so does session 26's s26b under its own name):
#   scripts/build_kernel_experiments.sh --dist dist/s28b --base \
#     pp=results/h200/experiments/patches/pair-compact-params.patch
#   tar -C dist -cf - s28b | xz -T2 -9 > dist/s28b.tar.xz
# and call with carry ["dist/s28b.tar.xz"]: base = HEAD's kernels, exp-pp = base + the patch.
# AB_JUDGE=pair: the pair judged on the 33 decode cases (the patch's .subset.txt) at >= 1 %
# faster, no case of the 47 more than 2 % slower; the fused kernel judged with no gain asked.
# On an adopted build: its matrix, sanitizer set, seed table and PDL table ($OUT/c2.tar.gz); the
# weights producer's tables are wave24/calls/pdl-weights.sh's, a call of their own (600 s a call).
set -u
AB_JUDGE=pair ADOPTED_STEPS="matrix sanitize seed pdl" AB_ROUNDS=2 \
  AB_CASES=results/h200/wave23/calls/call2-cases.txt \
  bash scripts/ab_call.sh dist/s28b.tar.xz s28b c2
echo "ab_call done ($SECONDS s)"
exit 0
