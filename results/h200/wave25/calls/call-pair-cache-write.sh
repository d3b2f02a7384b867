#!/usr/bin/env bash
# Round 27 in results/NOTES.md (prepared in session 32): the pair's cache_write with two chunks a
# thread in flight, judged on the pair (issue 12 item 5: a lever that is not about fusion goes
# into the pair too). Build first, here, from HEAD:
#   scripts/build_kernel_experiments.sh --dist dist/s32e --base \
#     pcw2=results/h200/experiments/patches/pair-cache-write-two-in-flight.patch
#   tar -C dist -cf - s32e | xz -T2 -9 > dist/s32e.tar.xz
# and call with carry ["dist/s32e.tar.xz"]. The rule, fixed before the run: AB_JUDGE=pair, two
# interleaved rounds over pair-cache-write-cases.txt (the 32 MHA cases of the patch's subset file
# and 4 controls); the pair's geometric mean over the 32 at least 1 % faster, no case more than
# 2 % slower, the fused kernel no case more than 2 % slower; then the matrix and the sanitizer set
# on it ($OUT/c12.tar.gz).
set -u
ADOPTED_STEPS="matrix sanitize" AB_JUDGE=pair AB_ROUNDS=2 AB_MIN_GAIN=1 \
  AB_CASES=results/h200/wave25/calls/pair-cache-write-cases.txt \
  bash scripts/ab_call.sh dist/s32e.tar.xz s32e c12
echo "ab_call done ($SECONDS s)"
exit 0
