#!/usr/bin/env bash
# Session 48: round 64 (results/NOTES.md). Carry ["dist/w63.tar.xz"] (w60 for round 62 does not
# fit beside it under a call's 64 MB). Round 64's A/B, judged on the card it gets: dist/s89's base (dist/s88's landed
#   build, 588bc7d, HEAD's kernels) and exp-twg, from
#     cp dist/s88/rope-kv-bench dist/s89/ && scripts/build_kernel_experiments.sh --dist dist/s89 \
#       twg=results/h200/experiments/patches/token-warp-packed-gptj.patch
#     tar -C dist -cf - s89/rope-kv-bench s89/exp-twg | xz -T2 -9 > dist/w63.tar.xz
#   Two rounds on the 9 judged cases and 3 canaries; the matrix and the sanitizer on the adopted
#   build ($OUT/ab.tar.gz).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h100/wave36/calls/token-warp-packed-gptj-cases.txt \
  bash scripts/ab_call.sh dist/w63.tar.xz s89 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
