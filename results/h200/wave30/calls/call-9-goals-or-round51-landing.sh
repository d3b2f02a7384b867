#!/usr/bin/env bash
# Session 42 (prepared in session 41), call 9, carry ["dist/w37.tar.xz"]: s68/, s70/ and s73/ as
# call-8-goals-or-round51.sh's header says; t74/ (round 51's landing,
# results/h200/experiments/patches/phased-landing.patch applied to 40185af: `bash
# scripts/test.sh` there, 946 of 946 host tests, then rope-kv-bench and rkv_tests stripped),
#   tar -C dist -cf - s68 s70 s73 t74 | xz -T2 -9 > dist/w37.tar.xz
# The card decides:
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals of HEAD, then
#   round 47's A/B on this card, nothing else;
# - another card: round 51's A/B (results/NOTES.md, session 41: its rule; the matrix and the
#   sanitizer on the experiment build if adopted: $OUT/c73.tar.gz); if adopted, the landing's GPU
#   tests ($OUT/t74: the phased cases and their launch query among them) and the never-slower
#   recheck of the 15 survey cases the landing routes to the phased kernel, timed with its build
#   ($OUT/recheck/recheck.json).
set -u
for d in s68 s70 s73 t74; do ln -sf w37.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/phased-where-warps-mix-roles-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s73.tar.xz s73 c73
echo "round 51 done ($SECONDS s)"
tar -xzf "$OUT/c73.tar.gz" -O c73/ab-decisions.txt 2>/dev/null | grep -q "^exp-phasedmix fused 0 " ||
  { echo "round 51 not adopted: no landing checks"; exit 0; }
[[ -x t74/rkv_tests ]] || tar -xJf dist/t74.tar.xz || { echo "cannot unpack t74"; exit 4; }
chmod +x t74/rkv_tests t74/rope-kv-bench
BIN=$(pwd)/t74 OUT=$OUT/t74 timeout 120 bash scripts/device_run.sh tests
echo "t74 tests done ($SECONDS s)"
mkdir -p $OUT/recheck
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/phased-recheck-cases.txt
timeout $((575 - SECONDS)) t74/rope-kv-bench bench --config configs/never-slower.json \
  "${cases[@]}" --tag session=42 --json $OUT/recheck/recheck.json >$OUT/recheck/log.txt 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
