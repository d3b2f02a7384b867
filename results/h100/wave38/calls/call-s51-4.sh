#!/usr/bin/env bash
# Session 51, after the review: c6628b2's grid_stride kernel asked the device for its occupancy
# between each sample's events; the fix asks once before timing. Carry ["dist/w72.tar.xz"]
# (s97/rope-kv-bench and s97/rkv_tests built in /work/main at the fix, stripped, packed as w71).
# On any card: the floor probe's GPU tests and the floor reports again ($OUT/floor.tar.gz).
tar -xJf dist/w72.tar.xz || { echo "call-s51-4: cannot unpack dist/w72.tar.xz"; exit 4; }
chmod +x s97/rope-kv-bench s97/rkv_tests
mkdir -p "$OUT/floor"
s97/rkv_tests --gtest_filter='GpuStridedCopy*' >"$OUT/floor/gpu-strided-copy-tests.txt" 2>&1
echo "gpu tests: exit $?"; tail -2 "$OUT/floor/gpu-strided-copy-tests.txt"
patterns=128/384,384/384,128/256,256/256,1152/1152
s97/rope-kv-bench floor --patterns $patterns --json "$OUT/floor/floor-copy.json" >"$OUT/floor/floor-copy.txt" 2>&1
s97/rope-kv-bench floor --patterns $patterns --in-place --json "$OUT/floor/floor-in-place.json" \
  >"$OUT/floor/floor-in-place.txt" 2>&1
cat "$OUT/floor/floor-copy.txt" "$OUT/floor/floor-in-place.txt"
tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
