#!/usr/bin/env bash
# Session 48's last start (results/NOTES.md). Carry ["dist/w65.tar.xz", "dist/w66.tar.xz"].
# - On an H200: rounds 62 and 63 in one A/B (call-rounds-62-63-h200.sh, w65).
# - Elsewhere: the GPU tests of round 62's landing as refreshed onto round 63's
#   (experiments/patches/wide-half-landing.patch at HEAD; w66: s91t/rkv_tests, built in the
#   worktree /tmp/wt62 and stripped), as session 47's call-h100-round62.sh ran the first version.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  exec bash results/h200/wave35/calls/call-rounds-62-63-h200.sh
fi
tar -xJf dist/w66.tar.xz && chmod +x s91t/rkv_tests && mkdir -p "$OUT/gpu-tests"
# The test binary reads the tree at its build path (RKV_SOURCE_DIR, /tmp/wt62) and the packed
# reports unpacked under build/unpacked (tests/CMakeLists.txt's list): both made here.
[[ -e /tmp/wt62 ]] || ln -s "$PWD" /tmp/wt62
for f in $(sed -n '/set(RKV_PACKED_REPORTS/,/)/p' tests/CMakeLists.txt | grep -o 'results/[^ )]*\.gz'); do
  mkdir -p "build/unpacked/$(dirname "$f")" && gzip -dc "$f" >"build/unpacked/${f%.gz}"
done
timeout 300 s91t/rkv_tests --gtest_filter='Gpu*:*/Gpu*:Pdl*' \
  --gtest_output="json:$OUT/gpu-tests/gpu-tests.json" >"$OUT/gpu-tests/gpu-tests.txt" 2>&1
echo "gpu tests: exit $? ($SECONDS s)"; tail -3 "$OUT/gpu-tests/gpu-tests.txt"
grep -B2 -A8 "Failure" "$OUT/gpu-tests/gpu-tests.txt" | head -40
tar -C "$OUT" -czf "$OUT/gpu-tests.tar.gz" gpu-tests && rm -rf "${OUT:?}/gpu-tests"
