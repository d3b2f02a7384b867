#!/usr/bin/env bash
# Session 20, call 2 (carry ["dist/s20a.tar.xz"], built by build1.sh): round 1's A/B, the strided
# grid in 2, 4 and 16 waves against one (results/NOTES.md, session 20 round 1), on kernel-ab-stride
# (65k) and kernel-ab-rotary (16k), base first and last; the adopted build (if any) validated.
# About 5 x 70 s + 80 s.
set -u
AB_CONFIGS="stride rotary" bash scripts/ab_call.sh dist/s20a.tar.xz s20a waves
exit 0
