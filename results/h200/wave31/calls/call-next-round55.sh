#!/usr/bin/env bash
# Prepared in session 43 for the next session (results/NOTES.md, "For session 44": round 55's
# prediction and rule). Carry ["dist/w47.tar.xz"]: s79/ (HEAD's base and the ping-pong build):
#   scripts/build_kernel_experiments.sh --dist dist/s79 --base \
#     pp=results/h200/experiments/patches/strided-pingpong.patch
#   tar -C dist -cf - s79 | xz -T2 -9 > dist/w47.tar.xz
# Any card: round 55's A/B on the cards of round 54 (the gpt-j case an unmoved canary now).
set -u
ln -sf w47.tar.xz dist/s79.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave31/calls/strided-pipelined-cases.txt \
  timeout 540 bash scripts/ab_call.sh dist/s79.tar.xz s79 c79
echo "round 55 done ($SECONDS s)"
exit 0
