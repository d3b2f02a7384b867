#!/usr/bin/env bash
# Where the fused kernel loses to the pair with partial rotary and MLA (issue: never slower):
# a cold bench of full vs half rotary, neox vs gptj, on the heads the survey flagged, with the
# pair split into its two kernels, then Nsight Compute's key metrics for the fused kernel and
# both pair kernels on the worst shapes.
# Usage: scripts/rotary_probe.sh OUT_DIR [BINARY (default build/rope-kv-bench)] [TOKENS (16384)]
# Writes OUT_DIR/rotary-cold.json (the bench report) and OUT_DIR/ncu/ (scripts/ncu.sh per
# variant and case: NAME.csv and NAME.txt; the .ncu-rep files are removed to keep it small).
set -euo pipefail
if (($# < 1 || $# > 3)); then
  sed -n '6,8s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
out=$1 bin=${2:-build/rope-kv-bench} tokens=${3:-16384}
here=$(dirname "$0")
mkdir -p "$out/ncu"
"$bin" bench --mode cold --dtype bf16 --cache-dtype auto --layout nhd \
  --heads 32x8x128,32x32x128,40x8x80,mla:16 --style neox,gptj --rot-dim full,half \
  --tokens "$tokens" --json "$out/rotary-cold.json"
for spec in "32x8x128 neox half" "32x8x128 neox full" "mla:16 neox full" "mla:16 gptj full"; do
  read -r heads style rot <<<"$spec"
  id=$("$bin" validate --dtype bf16 --cache-dtype auto --layout nhd --heads "$heads" \
    --style "$style" --rot-dim "$rot" --tokens "$tokens" --dry-run | sed -n 1p)
  for variant in fused rope cache_write; do
    bash "$here/ncu.sh" "$id" "$variant" 3 "$out/ncu" "$bin" >/dev/null 2>&1 ||
      echo "rotary_probe.sh: ncu failed on $variant $id" >&2
  done
done
rm -f "$out"/ncu/*.ncu-rep
