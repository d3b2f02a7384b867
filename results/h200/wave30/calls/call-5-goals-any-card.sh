#!/usr/bin/env bash
# Session 41, call 5, carry ["dist/w33.tar.xz"] (s68/ and s70/: call-2-goals-or-misses.sh's
# header says how it is built). The goals of HEAD's kernels (s70 = a6f664c, unchanged since) on
# whichever card comes:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals, then round 47's
#   A/B on this card;
# - another card: the floor goal alone (device_run.sh's goals step: configs/floor-line.json and
#   goals.txt; about 4 minutes; $OUT/floor.tar.gz), never measured on an H100 before: where the
#   80 floor cells stand on that card, so that kernel rounds run there can aim at the cells
#   furthest from the goal. The decode and PDL tables are left out to keep the call short.
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
tar -xJf dist/s70.tar.xz || { echo "cannot unpack dist/s70.tar.xz"; exit 4; }
chmod +x s70/rope-kv-bench
STEP_TIMEOUT=330 BIN=$(pwd)/s70 OUT=$OUT/floor bash scripts/device_run.sh info goals
tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
echo "the floor goal on this card done ($SECONDS s)"
exit 0
