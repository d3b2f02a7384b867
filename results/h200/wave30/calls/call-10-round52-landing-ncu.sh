#!/usr/bin/env bash
# Session 42, call 10, carry ["dist/w38.tar.xz"]: s68/ and s70/ as before; s74/ (round 52:
# `scripts/build_kernel_experiments.sh --dist dist/s74
# phasednomla=results/h200/experiments/patches/phased-mixed-roles-not-mla.patch`, s70's binary
# copied in as its base); t75/ (round 52's landing: phased-landing.patch plus the MLA exception,
# applied to df77a48, `bash scripts/test.sh` there, then rope-kv-bench and rkv_tests stripped):
#   tar -C dist -cf - s68 s70 s74 t75 | xz -T2 -9 > dist/w38.tar.xz
# The card decides:
# - an H200: the goals of HEAD and round 47's A/B there (h200-goals-round47.sh), nothing else;
# - another card: round 52's A/B (results/NOTES.md, session 42: its rule; $OUT/c74.tar.gz); if
#   adopted, the landing's GPU tests ($OUT/t75) and the never-slower recheck of the 12 survey
#   cases the landing routes to the phased kernel ($OUT/recheck/recheck.json); then, whatever the
#   verdict, Nsight Compute's full set on 28x4x128 neox at 65k, the fused kernel and the pair's
#   rope kernel, with HEAD's build ($OUT/ncu: key metrics, details page, every raw metric as CSV).
set -u
for d in s68 s70 s74 t75; do ln -sf w38.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave30/calls/phased-where-warps-mix-roles-cases.txt \
  timeout 330 bash scripts/ab_call.sh dist/s74.tar.xz s74 c74
echo "round 52 done ($SECONDS s)"
[[ -x s70/rope-kv-bench ]] || tar -xJf dist/s70.tar.xz || { echo "cannot unpack s70"; exit 4; }
# adopted.txt names the build the rule adopted (after the harness confirmed any 2-4 % slower case).
if tar -xzf "$OUT/c74.tar.gz" -O c74/adopted.txt 2>/dev/null | grep -qx "exp-phasednomla"; then
  [[ -x t75/rkv_tests ]] || tar -xJf dist/t75.tar.xz || { echo "cannot unpack t75"; exit 4; }
  chmod +x t75/rkv_tests t75/rope-kv-bench
  BIN=$(pwd)/t75 OUT=$OUT/t75 timeout 120 bash scripts/device_run.sh tests
  echo "t75 tests done ($SECONDS s)"
  mkdir -p $OUT/recheck
  cases=()
  while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/phased-not-mla-recheck-cases.txt
  timeout 150 t75/rope-kv-bench bench --config configs/never-slower.json \
    "${cases[@]}" --tag session=42 --json $OUT/recheck/recheck.json >$OUT/recheck/log.txt 2>&1
  echo "recheck: exit $? ($SECONDS s)"
else
  echo "round 52 not adopted: no landing checks"
fi
((SECONDS < 480)) || { echo "no time left for ncu ($SECONDS s)"; exit 0; }
chmod +x s70/rope-kv-bench
mkdir -p $OUT/ncu
for v in fused rope; do
  timeout $((580 - SECONDS)) bash scripts/ncu.sh 'bf16|auto|28x4x128|neox|nhd|N=65536' $v 1 \
    /tmp/ncu s70/rope-kv-bench >$OUT/ncu/$v-log.txt 2>&1
  echo "ncu $v: exit $? ($SECONDS s)"
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for r in /tmp/ncu/*.ncu-rep; do
  [[ -f $r ]] || continue
  b=$(basename "$r" .ncu-rep)
  cp /tmp/ncu/$b.txt $OUT/ncu/
  "$ncu" --import "$r" --page raw --csv --print-units base >$OUT/ncu/$b.raw.csv
done
exit 0
