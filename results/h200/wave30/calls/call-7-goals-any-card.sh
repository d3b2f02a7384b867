#!/usr/bin/env bash
# Session 41, call 7, carry ["dist/w33.tar.xz"] (s68/ and s70/: call-2-goals-or-misses.sh's
# header says how it is built). The goals of HEAD's kernels (s70 = a6f664c) on whichever card
# comes:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals, then round 47's
#   A/B on this card;
# - another card: the same goals script (wave24/calls/goals.sh: the seed table, the PDL table
#   and the floor line, judged by scripts/check_kernel_goals.py; $OUT/goals.tar.gz), so that
#   the decode and PDL goals of that card sit beside its floor cells (call 6).
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
GOALS_TARBALL=dist/s70.tar.xz GOALS_DIR=s70 bash results/h200/wave24/calls/goals.sh
echo "goals on this card done ($SECONDS s)"
exit 0
