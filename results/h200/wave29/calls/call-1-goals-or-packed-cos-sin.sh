#!/usr/bin/env bash
# Session 39, call 1 (carry ["dist/w29.tar.xz"]: s61/, s63/rope-kv-bench and s64/, built as the
# wave28 call headers say, in one archive, since the three apart pass the carry limit and xz
# stores their common base binary once). The card decides:
# - an H200: wave28's call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's
#   A/B on the H200), nothing else;
# - another card: round 45 as prepared in session 38 (wave28/calls/call-8-packed-cos-sin.sh, its
#   rule fixed in results/NOTES.md before any run).
set -u
for d in s61 s63 s64; do ln -sf w29.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
bash results/h200/wave28/calls/call-8-packed-cos-sin.sh
