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
# - On an H200: issue 12's floor and decode goals of HEAD (device_run.sh info seed goals, about
#   300 s); rounds 62-64 follow in a next call (wave35/calls/call-rounds-62-64-h200.sh, w67).
# - Elsewhere (an H100): round 65's A/B on this card, base HEAD's build; the matrix and the
#   sanitizer on the adopted build, exp-ll100 preferred ($OUT/ab.tar.gz; about 300 s).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  # The floor and decode goals only (about 300 s; the PDL table's 120 s left out, with too little
  # device time left this session for the whole of goals.sh).
  tar -xJf dist/w68.tar.xz || { echo "call-s49-1: cannot unpack dist/w68.tar.xz"; exit 4; }
  STEP_TIMEOUT=330 BIN=$PWD/s92/exp-tw63 OUT=$OUT/goals bash scripts/device_run.sh info seed goals
  tar -C "$OUT" -czf "$OUT/goals.tar.gz" goals && rm -rf "${OUT:?}/goals"
  echo "goals done ($SECONDS s)"
  exit 0
fi
tar -xJf dist/w68.tar.xz && cp s92/exp-tw63/rope-kv-bench s93/rope-kv-bench ||
  { echo "call-s49-1: cannot assemble s93 from dist/w68.tar.xz"; exit 4; }
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=2 AB_PREFER="exp-ll100 exp-ll150" \
  AB_CASES=results/h100/wave37/calls/long-launch-cases.txt \
  bash scripts/ab_call.sh dist/w68.tar.xz s93 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
