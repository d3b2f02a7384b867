#!/usr/bin/env bash
# Session 42, call 13, carry ["dist/w42.tar.xz"]: s76/ (HEAD 2055c7d, `bash scripts/test.sh`,
# then `strip -o dist/s76/rope-kv-bench build/rope-kv-bench`):
#   tar -C dist -cf - s76 | xz -T2 -9 > dist/w42.tar.xz
# The card decides:
# - an H200: the goals of HEAD (h200-goals-s76.sh);
# - another card: Nsight Compute's full set on two of the H100's floor misses, each the fused
#   kernel against the pair's two kernels: mla:16 neox at 65k (87.9 % of copy bandwidth) and
#   32x32x128 neox at 16k (auto). Key metrics, details and every raw metric, packed into
#   $OUT/call13.tar.gz.
set -u
ln -sf w42.tar.xz dist/s76.tar.xz
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-s76.sh && exit 0
[[ -x s76/rope-kv-bench ]] || tar -xJf dist/s76.tar.xz || { echo "cannot unpack s76"; exit 4; }
chmod +x s76/rope-kv-bench
work=$OUT/call13
mkdir -p "$work"
trap 'tar -C "$OUT" -czf "$OUT/call13.tar.gz" call13 && rm -rf "$work"' EXIT
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for c in 'bf16|auto|mla:16|neox|nhd|N=65536' 'bf16|auto|32x32x128|neox|nhd|N=16384'; do
  for v in fused rope cache_write; do
    ((SECONDS < 500)) || { echo "no time left for $v $c"; continue; }
    timeout 90 bash scripts/ncu.sh "$c" $v 1 /tmp/ncu13 s76/rope-kv-bench >>"$work/ncu-log.txt" 2>&1
    echo "ncu $v $c: exit $? ($SECONDS s)"
  done
done
for r in /tmp/ncu13/*.ncu-rep; do
  [[ -f $r ]] || continue
  b=$(basename "$r" .ncu-rep)
  cp "/tmp/ncu13/$b.txt" "$work/"
  "$ncu" --import "$r" --page raw --csv --print-units base >"$work/$b.raw.csv"
done
exit 0
