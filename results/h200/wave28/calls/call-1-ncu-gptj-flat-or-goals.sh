#!/usr/bin/env bash
# Prepared in session 37 for session 38 (NOTES "For session 38", item 3), not yet run. Carry
# ["dist/s52.tar.xz", "dist/s59.tar.xz"]; on a fresh checkout rebuild s59 first:
#   scripts/build_kernel_experiments.sh --dist dist/s59 --base \
#     fgp=results/h200/experiments/patches/flat-gptj-partial-from-32k.patch
#   tar -C dist -cf - s59/rope-kv-bench s59/exp-fgp | xz -T2 -9 > dist/s59.tar.xz
# (and s52 as ../../wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh says).
# The card decides (scripts/h200_first.sh):
# - an H200: the goals of HEAD's kernels, then round 32 rebased;
# - another card: Nsight Compute of the fused kernel on the strided grid (base) and the flat grid
#   (fgp) for the one shape whose gpt-j partial rotary gained on the flat grid (16x2x256 rot = 128,
#   -6 to -7.5 % in rounds 43 and 43b) and one that lost (28x4x128 rot = 64, +2 to +6 %), three
#   launches each, caches flushed. Sectors a request, L2 hits, stall reasons and SM balance say
#   which mechanism a rule for it would rest on. $OUT/ncu-base/, $OUT/ncu-exp-fgp/.
set -u
bash scripts/h200_first.sh results/h200/wave26/calls/call-h200-goals-token-warp-auto-from-a-wave.sh &&
  exit 0
tar -xJf dist/s59.tar.xz && chmod +x s59/rope-kv-bench s59/exp-fgp/rope-kv-bench
# device_run.sh's ncu step: the fused kernel, three launches a case, ncu-summary.txt in each OUT.
cases='bf16|auto|16x2x256|gptj|nhd|N=65536|rot=128;bf16|auto|28x4x128|gptj|nhd|N=65536|rot=64'
for b in base exp-fgp; do
  bin=s59
  [[ $b == base ]] || bin=s59/$b
  NCU_CASES=$cases BIN=$bin OUT=$OUT/ncu-$b STEP_TIMEOUT=240 bash scripts/device_run.sh ncu
  echo "$b: exit $? ($SECONDS s)"
done
exit 0
