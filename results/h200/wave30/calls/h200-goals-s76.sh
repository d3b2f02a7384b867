#!/usr/bin/env bash
# The H200 half of session 42's call 13 (run by scripts/h200_first.sh; carry as the call's header
# says): the goals of HEAD's build, s76 (2055c7d: rounds 52 and 53 landed), as $OUT/goals.tar.gz
# (about 450 s).
set -u
GOALS_TARBALL=dist/s76.tar.xz GOALS_DIR=s76 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
exit 0
