#!/usr/bin/env bash
# Prepared in session 25 (no device lent), for the first call of the next session that has one;
# round 20 in results/NOTES.md. Build first, here:
#   scripts/build_kernel_experiments.sh --dist dist/s26a --base \
#     rwc=results/h200/experiments/patches/row-warp-compact-params.patch
#   tar -C dist -cf - s26a | xz -T2 -9 > dist/s26a.tar.xz
# and call with carry ["dist/s26a.tar.xz"]: base = HEAD's kernels, exp-rwc = base + the patch.
# 1. Round 20 by the tool: two interleaved rounds over the 38 row-warp cases (graph mode), the
#    rule, then on the adopted build its matrix, sanitizer set and seed table (the decode line):
#    $OUT/c1.tar.gz.
# 2. The PDL table of each build, base first, on this machine (reported whatever the verdict):
#    $OUT/c1-pdl.tar.gz.
set -u
ADOPTED_STEPS="matrix sanitize seed" AB_ROUNDS=2 AB_CASES=results/h200/wave23/calls/call1-cases.txt \
  bash scripts/ab_call.sh dist/s26a.tar.xz s26a c1
echo "ab_call done ($SECONDS s)"
for build in s26a s26a/exp-rwc; do
  ((SECONDS + 90 < 590)) || break
  STEP_TIMEOUT=80 BIN=$build OUT=$OUT/c1-pdl/${build//\//-} bash scripts/device_run.sh pdl
  echo "pdl $build: exit $? ($SECONDS s)"
done >"$OUT/c1-pdl.log" 2>&1
tar -C "$OUT" -czf "$OUT/c1-pdl.tar.gz" c1-pdl c1-pdl.log && rm -rf "$OUT/c1-pdl" "$OUT/c1-pdl.log"
exit 0
