#!/usr/bin/env bash
# Session 50, third call (results/NOTES.md, "Round 66"). Carry ["dist/w70.tar.xz",
# "dist/w69.tar.xz", "dist/w67.tar.xz"]:
#   w70: s95/rope-kv-bench (HEAD's kernels: dist/s94's, the landing of round 65), s95/exp-ll64 and
#        s95/exp-ll50 (scripts/build_kernel_experiments.sh --dist dist/s95
#        ll64=results/h200/experiments/patches/long-launch-64.patch ll50=...-50.patch)
#        tar -C dist -cf - s95 | xz -T2 -9 > dist/w70.tar.xz
#   w69, w67: as call-s50-2.sh says.
# On an H200: call-s50-2.sh's H200 steps (the goals of the landing, the never-slower cases round 65
# moves, rounds 62-64 in one round if time is left); the GPU tests it runs first took 9 s.
# Elsewhere (an H100): round 66's A/B under its rule (two rounds, AB_MIN_GAIN=2, ll50 preferred),
# the matrix and the sanitizer on an adopted build ($OUT/ab.tar.gz).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  exec bash results/h100/wave37/calls/call-s50-2.sh
fi
# S50_AB_ROUNDS / S50_ADOPTED_STEPS cut it to what a short budget allows (one round; the matrix only).
ADOPTED_STEPS=${S50_ADOPTED_STEPS:-matrix sanitize} AB_ROUNDS=${S50_AB_ROUNDS:-2} AB_MIN_GAIN=2 AB_PREFER="exp-ll50 exp-ll64" \
  AB_CASES=results/h100/wave37/calls/long-launch-66-cases.txt \
  bash scripts/ab_call.sh dist/w70.tar.xz s95 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
