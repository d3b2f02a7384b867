#!/usr/bin/env bash
# The ceilings of the floor goal's access shapes (session 43): `floor` copies, out of place and in
# place, of MLA's query rows (128 of 384 B rotated), a 128-dim head's half rotary (128 of 256 B),
# and the same rows whole; then the MLA cases of the floor goal cold, to set beside them.
# Usage: floor-shapes.sh BINARY OUT_DIR   (about 60 s)
set -u
bin=$1 out=$2
mkdir -p "$out"
patterns=128/384,384/384,128/256,256/256,1152/1152
"$bin" floor --patterns "$patterns" --json "$out/floor-copy.json" >"$out/floor-copy.txt" 2>&1
echo "floor copy: exit $?"
"$bin" floor --patterns "$patterns" --in-place --json "$out/floor-in-place.json" \
  >"$out/floor-in-place.txt" 2>&1
echo "floor in place: exit $?"
"$bin" bench --mode cold --dtype bf16 --cache-dtype auto --heads mla:16 --style neox,gptj \
  --tokens 16384,65536 --json "$out/mla-cold.json" >"$out/mla-cold.txt" 2>&1
echo "mla cold: exit $?"
exit 0
