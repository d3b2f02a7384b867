#!/usr/bin/env bash
# Session 41, call 8, carry ["dist/w36.tar.xz"]: s68/ and s70/ as call-2-goals-or-misses.sh's
# header says; s73/ (round 51: scripts/build_kernel_experiments.sh --dist dist/s73
# phasedmix=results/h200/experiments/patches/phased-where-warps-mix-roles.patch, the base copied
# from s70),
#   tar -C dist -cf - s68 s70 s73 | xz -T2 -9 > dist/w36.tar.xz
# The card decides:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals of HEAD, then
#   round 47's A/B on this card, nothing else;
# - another card: round 51 (results/NOTES.md, session 41: its rule; the matrix and the sanitizer
#   on the build if adopted: $OUT/c73.tar.gz), then, while the call has time, the seed and PDL
#   tables of HEAD's build judged for the decode and PDL goals ($OUT/decode.tar.gz), beside
#   call 6's floor cells of the same card.
set -u
for d in s68 s70 s73; do ln -sf w36.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/phased-where-warps-mix-roles-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s73.tar.xz s73 c73
echo "round 51 done ($SECONDS s)"
((SECONDS < 300)) || { echo "no time left for the decode and PDL tables ($SECONDS s)"; exit 0; }
[[ -x s70/rope-kv-bench ]] || tar -xJf dist/s70.tar.xz || { echo "cannot unpack s70"; exit 4; }
chmod +x s70/rope-kv-bench
STEP_TIMEOUT=$((580 - SECONDS)) BIN=$(pwd)/s70 OUT=$OUT/decode bash scripts/device_run.sh info seed pdl goals
tar -C "$OUT" -czf "$OUT/decode.tar.gz" decode && rm -rf "${OUT:?}/decode"
echo "the decode and PDL goals on this card done ($SECONDS s)"
exit 0
