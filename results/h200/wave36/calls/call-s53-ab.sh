#!/usr/bin/env bash
# Session 53: rounds 62 and 64 judged on HEAD's kernels (rounds 63 and 65 landed) in one A/B, with
# the adopted build's full matrix and sanitizer set in the same call. It replaces call-s52-1's
# A/B on w67 (builds from before rounds 63 and 65) and call-s52-2 (the matrix of the landing): an
# adoption here is the landing itself, checked. Carry ["dist/w74.tar.xz"]: dist/s99, made here at
# 45a3c7a (kernels as c8dc624's: nothing under kernels/, reference/ or src/ changed since):
#   base        dist/s97/rope-kv-bench (call-s51-2.sh's build of c8dc624), copied to s99/
#   exp-whl     scripts/build_kernel_experiments.sh --dist dist/s99 \
#   exp-twg       whl=results/h200/experiments/patches/wide-half-landing.patch \
#                 twg=results/h200/experiments/patches/token-warp-packed-gptj.patch
#   tar -C dist -cf - s99 | xz -T2 -9 > dist/w74.tar.xz
# Each build is judged on its own subset (the patch's .subset.txt); all 30 cases of
# rounds-62-64-cases.txt are timed together (round 63's cases are canaries now). Then, while
# S53_END (default 585 s) leaves 120 s, the adopted build's 48 mla:16 never-slower cases,
# recounted against session 46's survey ($OUT/ns-adopted.tar.gz).
# H200 only: on another card it says so and stops (exit 3; ANY_CARD=1 runs the A/B and the
# adopted build's matrix and sanitizer anyway, without the never-slower recount).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* || ${ANY_CARD:-0} == 1 ]] ||
  { echo "not an H200: rounds 62 and 64 are judged on the H200"; exit 3; }
end=${S53_END:-585}
ADOPTED_STEPS=${ADOPTED_STEPS:-info matrix sanitize} AB_ROUNDS=${AB_ROUNDS:-2} AB_MIN_GAIN=3 \
  AB_PREFER="exp-whl exp-twg" AB_CASES=results/h200/wave35/calls/rounds-62-64-cases.txt \
  timeout --signal=INT $((end - SECONDS)) bash scripts/ab_call.sh dist/w74.tar.xz s99 ab
adopted=$(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown)
echo "rounds 62 and 64: adopted $adopted ($SECONDS s)"
bin=$(pwd)/s99/$adopted
# The survey it is recounted against is the H200's: on another card the step is left out.
if [[ $card == *H200* && -x $bin/rope-kv-bench ]] && ((SECONDS <= end - 120)); then
  mkdir -p "$OUT/ns-adopted"
  timeout $((end - SECONDS - 10)) "$bin/rope-kv-bench" bench --config configs/never-slower.json \
    --heads mla:16 --json "$OUT/ns-adopted/ns-mla16.json" >"$OUT/ns-adopted/ns-mla16.txt" 2>&1
  echo "ns-mla16 on $adopted: exit $? ($SECONDS s)"
  python3 scripts/check_never_slower.py results/h200/wave34/never-slower/never-slower.json.xz \
    --newer "$OUT/ns-adopted/ns-mla16.json" >"$OUT/ns-adopted/recount.txt" 2>&1
  echo "recount: exit $?"; tail -3 "$OUT/ns-adopted/recount.txt"
  tar -C "$OUT" -czf "$OUT/ns-adopted.tar.gz" ns-adopted && rm -rf "${OUT:?}/ns-adopted"
fi
echo "call-s53-ab done ($SECONDS s)"
