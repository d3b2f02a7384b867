#!/usr/bin/env bash
# Prepared in session 29 (results/NOTES.md, "Session 29"): issue 12's goals judged on one machine
# by scripts/check_kernel_goals.py: the seed table (the decode goal), the PDL table with the
# default producer (the PDL goal) and configs/floor-line.json (the floor goal's 80 cells, cold).
# Runs on the base binary of dist/s28b.tar.xz (HEAD's kernels; built as pdl-weights.sh says), or
# on a build named by ADOPTED=exp-NAME inside it after a round is adopted and landed. Call with
# carry ["dist/s28b.tar.xz"]. About 450 s on an H200: seed about 60 s, pdl about 120 s, goals
# (floor-line) about 240 s. Writes $OUT/goals.tar.gz (seed-table-run1.json, pdl.json,
# pdl-table.md, floor-line.json, goals.txt, the device info, steps.txt, log.txt).
set -u
[[ -n ${OUT:-} ]] || { echo "goals.sh: OUT is not set" >&2; exit 4; }
tar -xJf dist/s28b.tar.xz || { echo "goals.sh: cannot unpack dist/s28b.tar.xz" >&2; exit 4; }
bin=$(pwd)/s28b${ADOPTED:+/$ADOPTED}
[[ -f $bin/rope-kv-bench ]] || { echo "goals.sh: no build at $bin" >&2; exit 4; }
chmod +x "$bin/rope-kv-bench"
BIN=$bin OUT=$OUT/goals bash scripts/device_run.sh info seed pdl goals
tar -C "$OUT" -czf "$OUT/goals.tar.gz" goals && rm -rf "${OUT:?}/goals"
echo "goals.sh done ($SECONDS s)"
exit 0
