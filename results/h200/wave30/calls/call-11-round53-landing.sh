#!/usr/bin/env bash
# Session 42, call 11, carry ["dist/w39.tar.xz"]: s68/ and s70/ as before; s75/ (round 53:
# `scripts/build_kernel_experiments.sh --dist dist/s75
# phflat=results/h200/experiments/patches/phased-flat-grid.patch`, HEAD's stripped normal build as
# its base); t76/ (round 53's landing on 36a5082, `bash scripts/test.sh` there, then rope-kv-bench
# and rkv_tests stripped):
#   tar -C dist -cf - s68 s70 s75 t76 | xz -T2 -9 > dist/w39.tar.xz
# The card decides:
# - an H200: the goals and round 47's A/B there (h200-goals-round47.sh), nothing else;
# - another card: round 53's A/B (results/NOTES.md, session 42: its rule), and if adopted the
#   landing's GPU tests and the never-slower recheck of the 4 survey cases it moves.
# Everything but the A/B's own archive is packed into $OUT/call11.tar.gz on the way out: call 10's
# loose files were more than the device tool brings back.
set -u
for d in s68 s70 s75 t76; do ln -sf w39.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
work=$OUT/call11
mkdir -p "$work"
trap 'tar -C "$OUT" -czf "$OUT/call11.tar.gz" call11 && rm -rf "$work"' EXIT
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/phased-flat-grid-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s75.tar.xz s75 c75
echo "round 53 done ($SECONDS s)"
# adopted.txt names the build the rule adopted (after the harness confirmed any 2-4 % slower case).
tar -xzf "$OUT/c75.tar.gz" -O c75/adopted.txt 2>/dev/null | grep -qx "exp-phflat" ||
  { echo "round 53 not adopted: no landing checks"; exit 0; }
[[ -x t76/rkv_tests ]] || tar -xJf dist/t76.tar.xz || { echo "cannot unpack t76"; exit 4; }
chmod +x t76/rkv_tests t76/rope-kv-bench
rm -rf /tmp/wt53  # the tests' build tree link (device_run.sh tests makes it)
BIN=$(pwd)/t76 OUT=$work/t76 timeout 120 bash scripts/device_run.sh tests
echo "t76 tests done ($SECONDS s)"
mkdir -p "$work/recheck"
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/phased-flat-recheck-cases.txt
timeout 120 t76/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=42 --json "$work/recheck/recheck.json" >"$work/recheck/log.txt" 2>&1
echo "recheck: exit $? ($SECONDS s)"
exit 0
