#!/usr/bin/env bash
# Prepared in session 27 (results/NOTES.md, "Session 27: a producer as long as the projection"):
# the PDL tables of HEAD's build after the default producer (configs/pdl.json) and after one that
# first streams the shape's QKV weights (configs/pdl-weights-mha.json, 96 MiB; -gqa, 48 MiB), in
# one process order on one machine. Build first, here:
#   scripts/build_kernel_experiments.sh --dist dist/s28b --base \
#     pp=results/h200/experiments/patches/pair-compact-params.patch
#   tar -C dist -cf - s28b | xz -T2 -9 > dist/s28b.tar.xz
# (s28b's base binary is HEAD's build; the same tarball serves round 21's call) and call with
# carry ["dist/s28b.tar.xz"]. About 330 s on an H200: pdl about 120 s, pdl-weights about 180 s.
# Writes $OUT/pw.tar.gz (pdl.json, pdl-table.md, pdl-weights-{mha,gqa}.json and -table.md, the
# device info, steps.txt, log.txt).
set -u
[[ -n ${OUT:-} ]] || { echo "pdl-weights.sh: OUT is not set" >&2; exit 4; }
tar -xJf dist/s28b.tar.xz || { echo "pdl-weights.sh: cannot unpack dist/s28b.tar.xz" >&2; exit 4; }
chmod +x s28b/rope-kv-bench
BIN=$(pwd)/s28b OUT=$OUT/pw bash scripts/device_run.sh info pdl pdl-weights
tar -C "$OUT" -czf "$OUT/pw.tar.gz" pw && rm -rf "${OUT:?}/pw"
echo "pdl-weights.sh done ($SECONDS s)"
exit 0
