#!/usr/bin/env bash
# Session 20, call 3 (carry ["dist/s20b.tar.xz"], built by build2.sh): round 2's A/B, long-waves
# against one wave (results/NOTES.md, session 20 round 2), kernel-ab-stride and kernel-ab-rotary,
# base first and last; the adopted build (if any) validated (matrix, sanitizer). About 300 s.
set -u
AB_CONFIGS="stride rotary" bash scripts/ab_call.sh dist/s20b.tar.xz s20b longwaves
exit 0
