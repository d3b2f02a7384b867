#!/usr/bin/env bash
# The H200 half of session 43's call 14 (run by scripts/h200_first.sh; carry as the call's header
# says): the goals of HEAD's build, s77 (its kernels equal s76's), as $OUT/goals.tar.gz (about
# 450 s), then the floor probe of the access shapes the floor goal's misses have, as
# $OUT/floor.tar.gz.
set -u
GOALS_TARBALL=dist/s77.tar.xz GOALS_DIR=s77 bash results/h200/wave24/calls/goals.sh
echo "goals done ($SECONDS s)"
bash results/h200/wave31/calls/floor-shapes.sh s77/rope-kv-bench "$OUT/floor"
tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
echo "floor done ($SECONDS s)"
exit 0
