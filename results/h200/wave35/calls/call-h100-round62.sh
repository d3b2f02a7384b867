#!/usr/bin/env bash
# Session 47, after four failed H200 starts: an H100 runs round 62's landing GPU tests and its A/B
# (base and whp only; results/NOTES.md, "Round 62 on an H100"). Carry ["dist/w58.tar.xz",
# "dist/w59.tar.xz"]: s86t/rkv_tests (the landing's test binary, stripped) and s85's base + exp-whp
# (tar ... s85/rope-kv-bench s85/exp-whp | xz -T2 -9).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
tar -xJf dist/w58.tar.xz && chmod +x s86t/rkv_tests && mkdir -p "$OUT/gpu-tests"
# The test binary reads the tree at its build path (RKV_SOURCE_DIR, /tmp/land62) and the packed
# reports unpacked under build/unpacked (tests/CMakeLists.txt's list): both made here. Without
# them it stops at start-up (session 47's first H100 call: results/h100/wave35/round62-ab/).
[[ -e /tmp/land62 ]] || ln -s "$PWD" /tmp/land62
for f in $(sed -n '/set(RKV_PACKED_REPORTS/,/)/p' tests/CMakeLists.txt | grep -o 'results/[^ )]*\.gz'); do
  mkdir -p "build/unpacked/$(dirname "$f")" && gzip -dc "$f" >"build/unpacked/${f%.gz}"
done
timeout 240 s86t/rkv_tests --gtest_filter='Gpu*:*/Gpu*:Pdl*' \
  --gtest_output="json:$OUT/gpu-tests/gpu-tests.json" >"$OUT/gpu-tests/gpu-tests.txt" 2>&1
echo "gpu tests: exit $? ($SECONDS s)"; tail -3 "$OUT/gpu-tests/gpu-tests.txt"
tar -C "$OUT" -czf "$OUT/gpu-tests.tar.gz" gpu-tests && rm -rf "${OUT:?}/gpu-tests"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 \
  AB_CASES=results/h200/wave35/calls/wide-half-cases.txt bash scripts/ab_call.sh dist/w59.tar.xz s85 ab
echo "ab done ($SECONDS s)"
