#!/usr/bin/env bash
# Session 29, after round 23 (results/NOTES.md, round 23b): row-warp CTAs of 64 threads. Build
# here: P=results/h200/experiments/patches/row-warp-cta-threads.patch
#   scripts/build_kernel_experiments.sh --dist dist/s29 cta64=$P,-DRKV_ROW_WARP_CTA_THREADS=64
#   tar -C dist -cf - s29/rope-kv-bench s29/exp-cta64 | xz -T2 -9 > dist/s29b.tar.xz
# and call with carry ["dist/s29b.tar.xz"]: base = dist/s29's base (HEAD's kernels), exp-cta64.
# The rule: two interleaved rounds over the 38 row-warp cases, at least 1 % faster, no case more
# than 2 % slower; the adopted build's matrix and seed table: $OUT/c5.tar.gz (the sanitizer set
# in a later call, before landing: session 29 had too little device time left for it here).
set -u
ADOPTED_STEPS="matrix seed" AB_ROUNDS=2 AB_MIN_GAIN=1 \
  AB_CASES=results/h200/wave23/calls/call1-cases.txt \
  bash scripts/ab_call.sh dist/s29b.tar.xz s29 c5
echo "ab_call done ($SECONDS s)"
exit 0
