#!/usr/bin/env bash
# Session 51 (results/NOTES.md, "Session 51"). Carry ["dist/w72.tar.xz", "dist/w67.tar.xz"].
# w72 holds s97/rope-kv-bench and s97/rkv_tests, built in /work/main at c8dc624 (the floor probe's
# four copy kernels; the kernels are round 65's landing, cef68a2's) and stripped:
#   strip -o dist/s97/rope-kv-bench build/rope-kv-bench; strip -o dist/s97/rkv_tests build/rkv_tests
#   tar -C dist -cf - s97 | xz -T2 -6 > dist/w72.tar.xz
# w67 is rounds 62-64's builds (results/h200/wave35/calls/call-rounds-62-64-h200.sh says how).
# Each step is packed as soon as it ends, so a call cut short still brings back what finished.
# On any card:
# 1. every GPU test of c8dc624's test binary, and the floor command's CLI test ($OUT/gpu-tests.tar.gz);
# 2. the floor probe with its four copy kernels, out of place and in place, on MLA's and half
#    rotary's shapes and whole rows, and the eight MLA floor cells of bf16 at 65k in the same call,
#    so the ceiling and the kernel sit side by side ($OUT/floor.tar.gz, about 20 s).
# On an H200 only:
# 3. the never-slower cases round 65 moves (never-slower-moved-ll100.txt) ($OUT/ns-moved.tar.gz);
# 4. issue 12's goals on HEAD's kernels (results/h200/wave24/calls/goals.sh; $OUT/goals.tar.gz);
# 5. rounds 62-64's A/B in one round if at most 390 s have gone ($OUT/ab.tar.gz).
# S51_END (default 585): the second of the call by which every step has ended, for a call given a
# shorter timeout_s than 600.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
tar -xJf dist/w72.tar.xz || { echo "call-s51-2: cannot unpack dist/w72.tar.xz"; exit 4; }
chmod +x s97/rope-kv-bench s97/rkv_tests
OUT=$OUT bash scripts/device_gpu_tests.sh s97/rkv_tests /work/main gpu-tests
echo "gpu tests: exit $? ($SECONDS s)"
# The CLI test runs the executable at the path it was built with (/work/main, linked above).
mkdir -p build "$OUT/cli" && cp s97/rope-kv-bench build/rope-kv-bench
timeout 120 s97/rkv_tests --gtest_filter='CliProcess.Gpu*' >"$OUT/cli/cli-gpu-tests.txt" 2>&1
echo "cli gpu tests: exit $? ($SECONDS s)"; tail -3 "$OUT/cli/cli-gpu-tests.txt"
tar -C "$OUT" -czf "$OUT/cli.tar.gz" cli && rm -rf "${OUT:?}/cli"
mkdir -p "$OUT/floor"
patterns=128/384,384/384,128/256,256/256,1152/1152
timeout 120 s97/rope-kv-bench floor --patterns $patterns --json "$OUT/floor/floor-copy.json" \
  >"$OUT/floor/floor-copy.txt" 2>&1
echo "floor: exit $? ($SECONDS s)"
timeout 120 s97/rope-kv-bench floor --patterns $patterns --in-place \
  --json "$OUT/floor/floor-in-place.json" >"$OUT/floor/floor-in-place.txt" 2>&1
echo "floor in place: exit $? ($SECONDS s)"
timeout 120 s97/rope-kv-bench bench --mode cold --tokens 65536 --heads mla:16,mla:128 \
  --style neox,gptj --cache-dtype auto,fp8_e4m3 --dtype bf16 --json "$OUT/floor/mla-cold.json" \
  >"$OUT/floor/mla-cold.txt" 2>&1
echo "mla cold: exit $? ($SECONDS s)"
cat "$OUT/floor/floor-copy.txt" "$OUT/floor/floor-in-place.txt"; tail -8 "$OUT/floor/mla-cold.txt"
tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
# S51_ANY_CARD_ONLY=1: stop here on any card (call-s52-1.sh runs the H200 steps in its own order).
[[ $card == *H200* && ${S51_ANY_CARD_ONLY:-0} != 1 ]] ||
  { echo "call-s51-2 done on $card ($SECONDS s)"; exit 0; }
OUT=$OUT bash scripts/never_slower_cases.sh s97/rope-kv-bench \
  results/h100/wave37/calls/never-slower-moved-ll100.txt ns-moved
echo "ns-moved: exit $? ($SECONDS s)"
GOALS_TARBALL=dist/w72.tar.xz GOALS_DIR=s97 bash results/h200/wave24/calls/goals.sh
end=${S51_END:-585}
if ((SECONDS <= end - 195)); then
  ADOPTED_STEPS=info AB_ROUNDS=1 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-twg exp-tw63" \
    AB_CASES=results/h200/wave35/calls/rounds-62-64-cases.txt \
    timeout --signal=INT $((end - SECONDS)) bash scripts/ab_call.sh dist/w67.tar.xz s92 ab
  echo "rounds 62-64: adopted $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown)"
else
  echo "rounds 62-64: skipped, $SECONDS s gone"
fi
echo "call-s51-2 done ($SECONDS s)"
