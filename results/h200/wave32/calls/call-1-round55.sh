#!/usr/bin/env bash
# Session 44, call 1. Carry ["dist/w47.tar.xz"]: s79/ = HEAD 0ba3d48's build (base) and exp-pp
# (strided-pingpong.patch), built by
#   scripts/build_kernel_experiments.sh --dist dist/s79 --base \
#     pp=results/h200/experiments/patches/strided-pingpong.patch
#   tar -C dist -cf - s79 | xz -T2 -9 > dist/w47.tar.xz
# 1. Round 55's A/B (results/NOTES.md, "For session 44" item 1: prediction and rule), any card.
# 2. SASS of both builds: which kernels differ, and the ping-pong kernel's SASS (the check that
#    no loaded chunk is copied between a preload and the other buffer's stores). $OUT/c1-sass.tar.gz
# 3. On an H200 only: ncu of mla:16 at 65k against the floor probe (mla-ncu-h200.sh). $OUT/c1-mla.tar.gz
set -u
export LC_ALL=C  # join and sort agree on order
ln -sf w47.tar.xz dist/s79.tar.xz
nvidia-smi --query-gpu=name --format=csv,noheader
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave31/calls/strided-pipelined-cases.txt \
  timeout 420 bash scripts/ab_call.sh dist/s79.tar.xz s79 c79
echo "round 55 done ($SECONDS s)"
S=$OUT/c1-sass
mkdir -p "$S"
cuo=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for side in base pp; do
  b=s79/rope-kv-bench
  [[ $side == pp ]] && b=s79/exp-pp/rope-kv-bench
  mkdir -p "$S/$side"
  # One file a function ("Function : NAME" opens each); the md5 of each body says which differ.
  "$cuo" -sass "$b" 2>/dev/null | awk -v d="$S/$side" '
    /Function :/ { if (file) close(file); f = $3; gsub(/[^A-Za-z0-9_]/, "_", f); file = d "/" substr(f, 1, 200) ".sass" }
    file { print > file }'
  (cd "$S/$side" && md5sum -- *.sass | sort -k2 >"../md5-$side.txt")
done
join -1 2 -2 2 -a 1 -a 2 -e none -o 0,1.1,2.1 "$S/md5-base.txt" "$S/md5-pp.txt" |
  awk '{ print ($2 == $3 ? "same" : "DIFFERS"), $1 }' >"$S/compare.txt"
mv "$S"/pp/*pingpong*.sass "$S"/ 2>/dev/null
rm -rf "$S/base" "$S/pp"
echo "sass: $(grep -c DIFFERS "$S/compare.txt") of $(wc -l <"$S/compare.txt") functions differ ($SECONDS s)"
tar -C "$OUT" -czf "$OUT/c1-sass.tar.gz" c1-sass && rm -rf "$S"
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ $card == *H200* ]] && ((SECONDS < 470)); then
  bash results/h200/wave32/calls/mla-ncu-h200.sh s79/rope-kv-bench "$OUT/c1-mla"
  tar -C "$OUT" -czf "$OUT/c1-mla.tar.gz" c1-mla && rm -rf "$OUT/c1-mla"
fi
exit 0
