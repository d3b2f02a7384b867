#!/usr/bin/env bash
# Session 49, the first call: useful on whichever card comes (results/NOTES.md, round 65).
# Carry ["dist/w68.tar.xz"]:
#   s92/exp-tw63/rope-kv-bench  HEAD's kernels and routes (588bc7d's landed build; the tree of
#                               kernels/, src/ and reference/ is unchanged since)
#   s93/exp-ll150, s93/exp-ll100  round 65: row-major launches long from 150 / 100 units a
#                               thread (200 at HEAD), built at 9a1f780 by
#     mkdir -p dist/s93 && cp dist/s88/rope-kv-bench dist/s93/ &&
#     scripts/build_kernel_experiments.sh --dist dist/s93 \
#       ll150=results/h200/experiments/patches/long-launch-150.patch \
#       ll100=results/h200/experiments/patches/long-launch-100.patch
#     tar -C dist -cf - s92/exp-tw63/rope-kv-bench s93/exp-ll150 s93/exp-ll100 | xz -T2 -9 > dist/w68.tar.xz
# - On an H200: issue 12's goals of HEAD (results/h200/wave24/calls/goals.sh, about 450 s);
#   rounds 62-64 follow in the next call (wave35/calls/call-rounds-62-64-h200.sh, w67).
# - Elsewhere (an H100): round 65's A/B on this card, base HEAD's build; the matrix and the
#   sanitizer on the adopted build, exp-ll100 preferred ($OUT/ab.tar.gz; about 300 s).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  GOALS_TARBALL=dist/w68.tar.xz GOALS_DIR=s92 ADOPTED=exp-tw63 \
    exec bash results/h200/wave24/calls/goals.sh
fi
tar -xJf dist/w68.tar.xz && cp s92/exp-tw63/rope-kv-bench s93/rope-kv-bench ||
  { echo "call-s49-1: cannot assemble s93 from dist/w68.tar.xz"; exit 4; }
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=2 AB_PREFER="exp-ll100 exp-ll150" \
  AB_CASES=results/h100/wave37/calls/long-launch-cases.txt \
  bash scripts/ab_call.sh dist/w68.tar.xz s93 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
