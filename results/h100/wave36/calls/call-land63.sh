#!/usr/bin/env bash
# Session 48: round 63's landing on any card (results/NOTES.md, round 63). Carry
# ["dist/w62.tar.xz"]: s88/rkv_tests and s88/rope-kv-bench, the landing's test and bench binaries
# (stripped; built in /work/main at the landing's commit, tar -C dist ... | xz -T2 -9). Every GPU test of the
# landing's test binary ($OUT/gpu-tests.tar.gz), then the never-slower survey's mla:16 neox
# full-rotary cases with its bench binary, checked on their own (check_never_slower.py;
# $OUT/ns-mla16-neox.tar.gz). On an H200, round 62's call follows on the warm machine (w60 does
# not fit beside w62 under the 64 MB a call carries).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
tar -xJf dist/w62.tar.xz || { echo "cannot unpack dist/w62.tar.xz"; exit 4; }
# The test binary reads the tree at its build path (RKV_SOURCE_DIR, /work/main) and the packed
# reports unpacked under build/unpacked (tests/CMakeLists.txt's list): both made here.
[[ -e /work/main ]] || { mkdir -p /work && ln -s "$PWD" /work/main; }
for f in $(sed -n '/set(RKV_PACKED_REPORTS/,/)/p' tests/CMakeLists.txt | grep -o 'results/[^ )]*\.gz'); do
  mkdir -p "build/unpacked/$(dirname "$f")" && gzip -dc "$f" >"build/unpacked/${f%.gz}"
done
mkdir -p "$OUT/gpu-tests" "$OUT/ns-mla16-neox"
timeout 300 s88/rkv_tests --gtest_filter='Gpu*:*/Gpu*:Pdl*' \
  --gtest_output="json:$OUT/gpu-tests/gpu-tests.json" >"$OUT/gpu-tests/gpu-tests.txt" 2>&1
echo "gpu tests: exit $? ($SECONDS s)"; tail -3 "$OUT/gpu-tests/gpu-tests.txt"
tar -C "$OUT" -czf "$OUT/gpu-tests.tar.gz" gpu-tests && rm -rf "${OUT:?}/gpu-tests"
timeout 200 s88/rope-kv-bench bench --config configs/never-slower.json --heads mla:16 --style neox \
  --rot-dim full --json "$OUT/ns-mla16-neox/ns-mla16-neox.json" >"$OUT/ns-mla16-neox/ns.txt" 2>&1
echo "ns-mla16-neox: exit $? ($SECONDS s)"
python3 scripts/check_never_slower.py "$OUT/ns-mla16-neox/ns-mla16-neox.json" \
  >"$OUT/ns-mla16-neox/check.txt" 2>&1
echo "check: exit $?"; tail -3 "$OUT/ns-mla16-neox/check.txt"
tar -C "$OUT" -czf "$OUT/ns-mla16-neox.tar.gz" ns-mla16-neox && rm -rf "${OUT:?}/ns-mla16-neox"
