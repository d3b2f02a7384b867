#!/usr/bin/env bash
# Session 41, call 5, carry ["dist/w33.tar.xz"] (s68/ and s70/: call-2-goals-or-misses.sh's
# header says how it is built). The goals of HEAD's kernels (s70 = a6f664c, unchanged since) on
# whichever card comes:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals, then round 47's
#   A/B on this card;
# - another card: the same goals script (wave24/calls/goals.sh: the seed table, the PDL table,
#   configs/floor-line.json; $OUT/goals.tar.gz), never measured on an H100 before: where each of
#   issue 12's three measured goals stands on that card, so that kernel rounds run there can aim
#   at the cells furthest from them.
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
GOALS_TARBALL=dist/s70.tar.xz GOALS_DIR=s70 bash results/h200/wave24/calls/goals.sh
echo "goals on this card done ($SECONDS s)"
exit 0
