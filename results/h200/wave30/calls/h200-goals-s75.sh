#!/usr/bin/env bash
# The H200 half of session 42's calls 11 and 12 (run by scripts/h200_first.sh; carry as the
# call's header says): the goals of HEAD's build, s75's base (36a5082: round 52 landed), as
# $OUT/goals.tar.gz (about 450 s). Round 47's A/B on this card no longer fits the carry beside
# the tracked tree (64 MiB a call), so it waits.
set -u
GOALS_TARBALL=dist/s75.tar.xz GOALS_DIR=s75 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
exit 0
