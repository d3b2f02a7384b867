#!/usr/bin/env bash
# Session 41, call 6, carry ["dist/w35.tar.xz"]: s68/ and s70/ as call-2-goals-or-misses.sh's
# header says; s72/ (round 50: scripts/build_kernel_experiments.sh --dist dist/s72
# phased=results/h200/experiments/patches/strided-phased.patch, the base copied from s70),
#   tar -C dist -cf - s68 s70 s72 | xz -T2 -9 > dist/w35.tar.xz
# The card decides:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals of HEAD, then
#   round 47's A/B on this card, nothing else;
# - another card: round 50 (results/NOTES.md, session 41: its rule; the matrix and the sanitizer
#   on the build if adopted: $OUT/c72.tar.gz), then, while the call has time, the floor goal of
#   HEAD's build on that card (device_run.sh's goals step; $OUT/floor.tar.gz).
set -u
for d in s68 s70 s72; do ln -sf w35.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/strided-phased-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s72.tar.xz s72 c72
echo "round 50 done ($SECONDS s)"
((SECONDS < 320)) || { echo "no time left for the floor goal ($SECONDS s)"; exit 0; }
[[ -x s70/rope-kv-bench ]] || tar -xJf dist/s70.tar.xz || { echo "cannot unpack s70"; exit 4; }
chmod +x s70/rope-kv-bench
STEP_TIMEOUT=$((580 - SECONDS)) BIN=$(pwd)/s70 OUT=$OUT/floor bash scripts/device_run.sh info goals
tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
echo "the floor goal on this card done ($SECONDS s)"
exit 0
