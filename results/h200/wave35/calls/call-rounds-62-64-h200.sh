#!/usr/bin/env bash
# Prepared in session 48 for the next H200 (results/NOTES.md, "For session 49"): rounds 62, 63 and
# 64 in one A/B. Carry ["dist/w67.tar.xz"]: dist/s92, assembled from builds already made:
#   base      dist/s86's (a7057b3: the kernels before round 63)
#   exp-whl   dist/s86's (round 62's landing as first prepared; the refreshed patch differs only
#             in its GPU test list)
#   exp-tw63  dist/s88's bench binary (588bc7d: round 63 landed), round 63's subset
#   exp-twg   dist/s89's (round 64 on 453611569: round 63's kernels plus the gpt-j packed table)
#   tar -C dist -cf - s92 | xz -T1 -9 > dist/w67.tar.xz
# Each build judged on its own subset, all 30 cases timed together (rounds-62-64-cases.txt: the
# three rounds' lists and canaries). The A/B alone (about 300 s on an H100-sized run): the
# verdicts decide what lands; an adopted build's matrix and sanitizer follow in the next call.
# H200 only: on another card it says so and stops (exit 3).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* || ${ANY_CARD:-0} == 1 ]] || { echo "not an H200: rounds 62-64 are judged on the H200 here"; exit 3; }
ADOPTED_STEPS=info AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-twg exp-tw63" \
  AB_CASES=results/h200/wave35/calls/rounds-62-64-cases.txt \
  bash scripts/ab_call.sh dist/w67.tar.xz s92 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
