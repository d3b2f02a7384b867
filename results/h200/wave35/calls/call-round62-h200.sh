#!/usr/bin/env bash
# Prepared in session 47 for the next H200 (results/NOTES.md, "For session 48"): rounds 61 and 62
# in one A/B, with round 62 as its prepared landing. Carry ["dist/w60.tar.xz"]: dist/s86's base
# (HEAD a7057b3, whose kernel sources equal 76f8568's), exp-wp (round 61) and exp-whl (round 62:
# wide-half-landing.patch, the landing itself: the experiment's code is what would land), from
#   scripts/build_kernel_experiments.sh --dist dist/s86 --base \
#     wp=results/h200/experiments/patches/wide-packed-cos-sin.patch \
#     whl=results/h200/experiments/patches/wide-half-landing.patch
#   tar -C dist -cf - s86/rope-kv-bench s86/exp-wp s86/exp-whl | xz -T2 -9 > dist/w60.tar.xz
# 1. The A/B: two rounds on wave35's five judged mla:16 neox cases and four canaries; the matrix
#    and the sanitizer on the adopted build, exp-whl preferred ($OUT/ab.tar.gz).
# 2. Where exp-whl is adopted: the never-slower survey's 48 mla:16 cases with it
#    ($OUT/ns-mla16.tar.gz), recounted against session 46's survey (check_never_slower.py --newer).
# QUICK=1: the A/B alone (the adopted build's steps and the survey left for a later call).
# H200 only: on another card it says so and stops (exit 3); ANY_CARD=1 runs it anyway.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* || ${ANY_CARD:-0} == 1 ]] ||
  { echo "not an H200: round 62 is judged on the H200"; exit 3; }
steps="matrix sanitize"
[[ ${QUICK:-0} == 1 ]] && steps=info
ADOPTED_STEPS=$steps AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-wp" \
  AB_CASES=results/h200/wave35/calls/wide-half-cases.txt \
  bash scripts/ab_call.sh dist/w60.tar.xz s86 ab
adopted=$(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null)
echo "adopted: ${adopted:-unknown} ($SECONDS s)"
[[ $adopted == exp-whl && ${QUICK:-0} != 1 ]] || exit 0
mkdir -p "$OUT/ns-mla16"
timeout 240 s86/exp-whl/rope-kv-bench bench --config configs/never-slower.json --heads mla:16 \
  --json "$OUT/ns-mla16/ns-mla16.json" >"$OUT/ns-mla16/ns-mla16.txt" 2>&1
echo "ns-mla16: exit $? ($SECONDS s)"
python3 scripts/check_never_slower.py results/h200/wave34/never-slower/never-slower.json.xz \
  --newer "$OUT/ns-mla16/ns-mla16.json" >"$OUT/ns-mla16/recount.txt" 2>&1
echo "recount: exit $?"; tail -3 "$OUT/ns-mla16/recount.txt"
tar -C "$OUT" -czf "$OUT/ns-mla16.tar.gz" ns-mla16 && rm -rf "${OUT:?}/ns-mla16"
