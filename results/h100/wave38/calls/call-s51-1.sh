#!/usr/bin/env bash
# Session 51 (results/NOTES.md, "Session 51"). Carry ["dist/w69.tar.xz", "dist/w67.tar.xz"]
# (their headers: results/h100/wave37/calls/call-s50-2.sh). Round 66 was judged on an H100 and
# rejected, so an H100 has nothing left to measure for issue 12 that the H200 does not decide:
# on an H100 this stops at once; on an H200 it runs call-s50-2.sh (the landing's GPU tests, the
# never-slower cases round 65 moves, the H200 goals of HEAD's kernels, then rounds 62-64).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "call-s51-1: not an H200, nothing run"; exit 0; }
exec bash results/h100/wave37/calls/call-s50-2.sh
