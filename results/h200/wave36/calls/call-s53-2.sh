#!/usr/bin/env bash
# Session 53's second call (results/NOTES.md, "Session 53"). Carry ["dist/w72.tar.xz",
# "dist/w74.tar.xz"]. The first (call-s53-1.sh) came on an H100 and brought that card's any-card
# steps and goals back (results/h100/wave38/*-45a3c7a/); repeating them there would spend a start.
# On an H200: call-s53-1.sh whole (the floor probe's ceilings there, the goals, rounds 62 and 64
# on HEAD's kernels, round 65's moved never-slower cases).
# On an H100: rounds 62 and 64 on HEAD's kernels (call-s53-ab.sh with ANY_CARD=1) and the
# adopted build's matrix and sanitizer. That card ran their target cells below the floor goal
# (mla:16 at 65k: auto neox 88.6 and 89.6 %, fp8 gpt-j 87.9 and 88.0 %), unlike the card that
# rejected them (bases at 91-92 %). An adoption there lands, with the H200 to confirm (the rule of
# session 47).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* ]] && exec bash results/h200/wave36/calls/call-s53-1.sh
ANY_CARD=1 bash results/h200/wave36/calls/call-s53-ab.sh
echo "call-s53-2 done on $card ($SECONDS s)"
