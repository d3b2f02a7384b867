#!/usr/bin/env bash
# Prepared in session 29 (results/NOTES.md, "Session 29"): issue 12's goals judged on one machine
# by scripts/check_kernel_goals.py: the seed table (the decode goal), the PDL table with the
# default producer (the PDL goal) and configs/floor-line.json (the floor goal's 80 cells, cold).
# The build: GOALS_TARBALL (default dist/s28b.tar.xz) holding the folder GOALS_DIR (default s28b),
# whose base binary is HEAD's kernels, or the experiment ADOPTED=exp-NAME inside it; after rounds
# have landed, a fresh build of HEAD packed the same way. Call with carry [GOALS_TARBALL]. About
# 450 s on an H200: seed about 60 s, pdl about 120 s, goals (floor-line) about 240 s. Writes
# $OUT/goals.tar.gz (seed-table-run1.json, pdl.json, pdl-table.md, floor-line.json, goals.txt,
# the device info, steps.txt, log.txt).
set -u
[[ -n ${OUT:-} ]] || { echo "goals.sh: OUT is not set" >&2; exit 4; }
tarball=${GOALS_TARBALL:-dist/s28b.tar.xz} dir=${GOALS_DIR:-s28b}
tar -xJf "$tarball" || { echo "goals.sh: cannot unpack $tarball" >&2; exit 4; }
bin=$(pwd)/$dir${ADOPTED:+/$ADOPTED}
[[ -f $bin/rope-kv-bench ]] || { echo "goals.sh: no build at $bin" >&2; exit 4; }
chmod +x "$bin/rope-kv-bench"
# floor-line takes about 240 s, close to the default bound of 290 s a step: give it room.
STEP_TIMEOUT=330 BIN=$bin OUT=$OUT/goals bash scripts/device_run.sh info seed pdl goals
tar -C "$OUT" -czf "$OUT/goals.tar.gz" goals && rm -rf "${OUT:?}/goals"
echo "goals.sh done ($SECONDS s)"
exit 0
