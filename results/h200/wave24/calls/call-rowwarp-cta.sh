#!/usr/bin/env bash
# Prepared in session 29 (no device lent): round 23 in results/NOTES.md, row-warp CTAs of 256 and
# 512 threads. Build first, here, from HEAD:
#   P=results/h200/experiments/patches/row-warp-cta-threads.patch
#   scripts/build_kernel_experiments.sh --dist dist/s29 --base \
#     cta256=$P,-DRKV_ROW_WARP_CTA_THREADS=256 cta512=$P,-DRKV_ROW_WARP_CTA_THREADS=512
#   tar -C dist -cf - s29 | xz -T2 -9 > dist/s29.tar.xz
# and call with carry ["dist/s29.tar.xz"]: base = HEAD's kernels, exp-cta256 and exp-cta512 =
# base + the patch with the knob at 256 / 512 (only the row-warp kernels differ: NOTES).
# The rule: two interleaved rounds over the 38 row-warp cases of the survey (graph mode, N = 1, 8
# and 128, the cases of round 20), each build judged on all of them at >= 1 % faster, no case
# more than 2 % slower; exp-cta256 preferred where both adopt. Then on the adopted build its
# matrix, sanitizer set and seed table (the decode goal): $OUT/c4.tar.gz. About 280 s.
# Then, while the call has time, the PDL table of the base and of the adopted build on this
# machine (fewer CTAs may also shorten what the fused op adds after the producer; not judged):
# $OUT/c4-pdl.tar.gz. About 120 s each.
set -u
ADOPTED_STEPS="matrix sanitize seed" AB_ROUNDS=2 AB_MIN_GAIN=1 \
  AB_PREFER="exp-cta256 exp-cta512" AB_CASES=results/h200/wave23/calls/call1-cases.txt \
  bash scripts/ab_call.sh dist/s29.tar.xz s29 c4
echo "ab_call done ($SECONDS s)"
adopted=$(tar -xzOf "$OUT/c4.tar.gz" c4/adopted.txt 2>/dev/null)
builds=(s29)
[[ $adopted == exp-* ]] && builds+=("s29/$adopted")
for build in "${builds[@]}"; do
  ((SECONDS + 130 < 590)) || break
  STEP_TIMEOUT=120 BIN=$build OUT=$OUT/c4-pdl/${build//\//-} bash scripts/device_run.sh pdl
  echo "pdl $build: exit $? ($SECONDS s)"
done >"$OUT/c4-pdl.log" 2>&1
tar -C "$OUT" -czf "$OUT/c4-pdl.tar.gz" c4-pdl c4-pdl.log 2>/dev/null &&
  rm -rf "${OUT:?}/c4-pdl" "$OUT/c4-pdl.log"
exit 0
