#!/usr/bin/env bash
# Session 44, item 4 of "For session 44": why mla:16 neox at 65k runs at 74.5 % of the copy on an
# H200 when a plain copy of the same bytes reaches 89.7 %. One launch each, full ncu set, caches
# flushed (as `bench --mode cold`): the fused kernel, the pair's two kernels, and the `floor`
# probe's strided copy of MLA's q rows in place (128 of 384 B), the shape's own ceiling.
# Usage: mla-ncu-h200.sh BINARY OUT_DIR   (about 60 s)
set -u
bin=$1 out=$2
mkdir -p "$out"
for c in 'bf16|auto|mla:16|neox|nhd|N=65536' 'bf16|auto|mla:16|gptj|nhd|N=65536'; do
  for v in fused pair; do
    timeout -k 5 90 bash scripts/ncu.sh "$c" "$v" 1 "$out" "$bin" >>"$out/log.txt" 2>&1
    echo "ncu $v $c: exit $? ($SECONDS s)" | tee -a "$out/log.txt"
  done
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
# The probe runs 3 warm-up copies, then 15 timed ones after an L2 flush each: the 4th launch is
# the first timed one; --cache-control all flushes before it anyway.
timeout -k 5 90 "$ncu" --kernel-name strided_copy_kernel --launch-skip 3 --launch-count 1 \
  --cache-control all --clock-control none --set full -o "$out/floor-128-384-in-place" -f \
  "$bin" floor --patterns 128/384 --in-place >>"$out/log.txt" 2>&1
echo "ncu floor 128/384 in place: exit $? ($SECONDS s)" | tee -a "$out/log.txt"
[[ -f $out/floor-128-384-in-place.ncu-rep ]] &&
  "$ncu" --import "$out/floor-128-384-in-place.ncu-rep" --page details \
    >"$out/floor-128-384-in-place.txt" 2>&1
rm -f "$out"/*.ncu-rep
exit 0
