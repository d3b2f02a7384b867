#!/usr/bin/env bash
# Session 48: every start asked for nvidia-h200 runs this (results/NOTES.md, round 63). Carry
# ["dist/w60.tar.xz", "dist/w61.tar.xz"].
# - On an H200: round 62's call, unchanged (results/h200/wave35/calls/call-round62-h200.sh, w60).
# - Elsewhere (an H100): round 63's A/B, judged on this card: dist/s87's base (dist/s86's, built at
#   a7057b3, whose kernel, reference and src trees equal HEAD's at 52c837c), exp-twp7 (the packed
#   neox full-row token-warp kernel bounded to 7 CTAs a SM) and exp-twp (packed, its bound 5: the
#   base's occupancy), from
#     cp dist/s86/rope-kv-bench dist/s87/ && scripts/build_kernel_experiments.sh --dist dist/s87 \
#       twp7=results/h200/experiments/patches/token-warp-packed.patch \
#       twp=results/h200/experiments/patches/token-warp-packed.patch,-DRKV_TOKEN_WARP_PACKED_MIN_CTAS=5
#     tar -C dist -cf - s87/rope-kv-bench s87/exp-twp7 s87/exp-twp | xz -T2 -9 > dist/w61.tar.xz
#   Two rounds on the 9 judged cases and 3 canaries; the matrix and the sanitizer on the adopted
#   build, exp-twp7 preferred ($OUT/ab.tar.gz).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  exec bash results/h200/wave35/calls/call-round62-h200.sh
fi
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="exp-twp7 exp-twp" \
  AB_CASES=results/h100/wave36/calls/token-warp-packed-cases.txt \
  bash scripts/ab_call.sh dist/w61.tar.xz s87 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
