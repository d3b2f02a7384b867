#!/usr/bin/env bash
# Session 44, call 4, sized to the ~390 s of device time left (about 270 go to the start): one
# short job by card. Carry ["dist/w50.tar.xz"]: s82/ = HEAD's base and exp-ppb, built by
#   scripts/build_kernel_experiments.sh --dist dist/s82 --base \
#     ppb=results/h200/experiments/patches/strided-pingpong-bounded.patch
#   tar -C dist -cf - s82 | xz -T2 -9 > dist/w50.tar.xz
# - an H200: the MLA profile (mla-ncu-h200.sh) on the base. $OUT/c4-mla.tar.gz
# - another card: exploratory, not a decision (one round, no rule): exp-ppb, bf16 ping-pong at
#   6 CTAs a SM, spill-free, against the base on four bf16 neox cases and a gpt-j canary
#   (ppb-quick-cases.txt). $OUT/c4-ppb.tar.gz
set -u
tar -xJf dist/w50.tar.xz && chmod +x s82/rope-kv-bench s82/exp-ppb/rope-kv-bench
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  timeout 65 bash results/h200/wave32/calls/mla-ncu-h200.sh s82/rope-kv-bench "$OUT/c4-mla"
  tar -C "$OUT" -czf "$OUT/c4-mla.tar.gz" c4-mla && rm -rf "$OUT/c4-mla"
  exit 0
fi
mkdir -p "$OUT/c4-ppb"
ids=()
while read -r c; do ids+=(--case "$c"); done <results/h200/wave32/calls/ppb-quick-cases.txt
for b in base exp-ppb base-again; do
  bin=s82/rope-kv-bench
  [[ $b == exp-ppb ]] && bin=s82/exp-ppb/rope-kv-bench
  timeout 25 "$bin" bench --config configs/never-slower.json "${ids[@]}" --mode cold \
    --json "$OUT/c4-ppb/$b.json" >"$OUT/c4-ppb/$b.txt" 2>&1
  echo "$b: exit $? ($SECONDS s)"
done
tar -C "$OUT" -czf "$OUT/c4-ppb.tar.gz" c4-ppb && rm -rf "$OUT/c4-ppb"
exit 0
