#!/usr/bin/env bash
# Session 48: rounds 62 and 63 on an H200 in one A/B (results/NOTES.md, session 48). Carry
# ["dist/w65.tar.xz"]: dist/s90, assembled from builds already made: the base is dist/s86's
# (a7057b3, the kernels before round 63), exp-whl is dist/s86's (round 62's landing, prepared),
# exp-tw63 is dist/s88's bench binary (588bc7d: round 63 landed) with round 63's subset;
#   tar -C dist -cf - s90 | xz -T2 -9 > dist/w65.tar.xz
# Each build is judged on its own subset (wide-half-landing / token-warp-packed), both lists and
# the canaries timed together (rounds-62-63-cases.txt, 21 cases). The A/B alone: an adoption of
# exp-whl on the H200 lands round 62 next, with its matrix and sanitizer in a later call; exp-tw63
# gives round 63's H200 numbers (it is landed already, on the H100's verdict).
# H200 only: on another card it says so and stops (exit 3).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* || ${ANY_CARD:-0} == 1 ]] || { echo "not an H200: rounds 62 and 63 are judged on the H200 here"; exit 3; }
ADOPTED_STEPS=info AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-tw63" \
  AB_CASES=results/h200/wave35/calls/rounds-62-63-cases.txt \
  bash scripts/ab_call.sh dist/w65.tar.xz s90 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
