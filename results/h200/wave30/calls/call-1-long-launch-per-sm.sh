#!/usr/bin/env bash
# Session 40, call 1, carry ["dist/w32.tar.xz"]: s61/, s63/rope-kv-bench and s68/ as wave29's
# call-next-long-launch-per-sm.sh builds them; t69/ (round 47 landed on HEAD d85c8d4 with its
# two re-pinned host tests: `bash scripts/test.sh`, then rope-kv-bench and rkv_tests stripped);
# s69/ (round 48: scripts/build_kernel_experiments.sh --dist dist/s69
# pf=results/h200/experiments/patches/strided-prefetch-gqa128.patch, the base copied from s63),
#   tar -C dist -cf - s61 s63/rope-kv-bench s68 t69 s69 | xz -T2 -9 > dist/w32.tar.xz
# The card decides:
# - an H200: wave28's call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's
#   A/B on the H200), nothing else;
# - another card: round 47 (results/NOTES.md, session 39: the rule fixed there; the matrix and
#   the sanitizer on the build if adopted: $OUT/c31.tar.gz); the GPU tests of t69 ($OUT/t69);
#   round 48 (NOTES, session 40: its rule; the matrix on the build if adopted: $OUT/c32.tar.gz);
#   then never-slower.json's 18 cases whose route round 47 moves (the host route model: the gpt-j
#   65k launches that go from one wave to 16, and fp8 16x2x256 neox rot = 128 at 65k, flat to
#   strided), timed with round 47's build as the survey times them ($OUT/recheck/recheck.json).
set -u
for d in s61 s63 s68 s69; do ln -sf w32.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave29/calls/long-launch-per-sm-cases.txt \
  bash scripts/ab_call.sh dist/s68.tar.xz s68 c31
echo "round 47 done ($SECONDS s)"
chmod +x t69/rkv_tests t69/rope-kv-bench
BIN=$(pwd)/t69 OUT=$OUT/t69 timeout 120 bash scripts/device_run.sh tests
echo "t69 tests done ($SECONDS s)"
ADOPTED_STEPS="matrix" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/strided-prefetch-gqa128-cases.txt \
  timeout $((570 - SECONDS)) bash scripts/ab_call.sh dist/s69.tar.xz s69 c32
echo "round 48 done ($SECONDS s)"
((SECONDS < 480)) || { echo "no time left for the recheck ($SECONDS s)"; exit 0; }
mkdir -p $OUT/recheck
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/long-launch-per-sm-recheck-cases.txt
timeout $((565 - SECONDS)) s68/exp-lps/rope-kv-bench bench --config configs/never-slower.json \
  "${cases[@]}" --tag session=40 --json $OUT/recheck/recheck.json >$OUT/recheck/log.txt 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
