#!/usr/bin/env bash
# Session 43, call 14, carry ["dist/w43.tar.xz"]: s77/ (HEAD fb87a04, `floor` added; kernels as
# s76), built by `bash scripts/test.sh`, `strip -o dist/s77/rope-kv-bench build/rope-kv-bench`,
#   tar -C dist -cf - s77 | xz -T2 -9 > dist/w43.tar.xz
# The card decides:
# - an H200: the goals of HEAD and the floor shapes (h200-goals-s77.sh);
# - another card: the floor shapes alone (floor-shapes.sh), as $OUT/call14.tar.gz.
set -u
ln -sf w43.tar.xz dist/s77.tar.xz
bash scripts/h200_first.sh results/h200/wave31/calls/h200-goals-s77.sh && exit 0
tar -xJf dist/s77.tar.xz || { echo "cannot unpack s77"; exit 4; }
chmod +x s77/rope-kv-bench
trap 'tar -C "$OUT" -czf "$OUT/call14.tar.gz" call14 && rm -rf "${OUT:?}/call14"' EXIT
bash results/h200/wave31/calls/floor-shapes.sh s77/rope-kv-bench "$OUT/call14"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv >"$OUT/call14/gpu.csv"
exit 0
