#!/usr/bin/env bash
# Session 51: call-s51-2.sh on an H200 only (carry ["dist/w72.tar.xz", "dist/w67.tar.xz"]). Its
# any-card steps (GPU tests, the floor probe, the MLA cells) ran on an H100 in
# results/h100/wave38/{gpu-tests,floor}-c6628b2/, so on an H100 this stops at once. After the
# review's grid-stride fix (c8dc624) use call-s51-2.sh itself, which runs them again on any card.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* ]] || { echo "call-s51-3: not an H200, nothing run"; exit 0; }
exec bash results/h100/wave38/calls/call-s51-2.sh
