#!/usr/bin/env bash
# Session 36: round 37 in results/NOTES.md, 16-bit caches in the token warp below a wave, and the
# GPU tests and sanitizer set of round 36's landing. Build first, here, from HEAD (bf34721):
#   P=results/h200/experiments/patches
#   scripts/build_kernel_experiments.sh --dist dist/s45 --base \
#     twab=$P/token-warp-auto-below-a-wave.patch twabg=$P/token-warp-auto-below-a-wave-gptj.patch
#   strip -o dist/s45/rkv_tests build/rkv_tests     (HEAD's tests: round 36's new cases)
#   tar -C dist -cf - s45/rope-kv-bench s45/exp-twab s45/exp-twabg s45/rkv_tests \
#     | xz -T2 -9 > dist/s45.tar.xz
# and call with carry ["dist/s45.tar.xz"]. First HEAD's GPU tests ($OUT/tests) and its sanitizer
# set (configs/sanitizer.json with round 36's 1024-token MLA cases; $OUT/head), then the A/B. Its
# rule, fixed before the run: two interleaved rounds over token-warp-auto-below-a-wave-cases.txt
# (17 cases), each build judged on the cases whose launch it moved (AB_SUBSET=moved) at >= 3 %
# faster, no case more than 4 % slower; twab preferred, twabg if twab fails; then the adopted
# build's matrix and sanitizer set ($OUT/c15.tar.gz).
set -u
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"
tar -xJf dist/s45.tar.xz || { echo "cannot unpack dist/s45.tar.xz"; exit 4; }
chmod +x s45/rkv_tests s45/rope-kv-bench
BIN=$(pwd)/s45 OUT=$OUT/tests timeout 150 bash scripts/device_run.sh tests
BIN=$(pwd)/s45 OUT=$OUT/head timeout 200 bash scripts/device_run.sh sanitize
echo "head done ($SECONDS s)"
ADOPTED_STEPS="matrix sanitize" AB_ROUNDS=2 AB_MIN_GAIN=3 AB_PREFER="twab twabg" AB_SUBSET=moved \
  AB_CASES=results/h200/wave26/calls/token-warp-auto-below-a-wave-cases.txt \
  bash scripts/ab_call.sh dist/s45.tar.xz s45 c15
echo "ab_call done ($SECONDS s)"
exit 0
