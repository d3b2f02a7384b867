#!/usr/bin/env bash
# Builds what session 19's first call carries, from the committed HEAD (~6 min on two cores):
#   dist/s19.tar.xz  s19/rope-kv-bench (HEAD) and s19/exp-half16pre (HEAD plus
#                    half-units-16ctas-prefill.patch: results/NOTES.md, "Prepared for session 19"),
#                    judged on half-units-16ctas-prefill.subset.txt.
# Before the call: cuobjdump -sass of both binaries identical but for the four new
# rope_kv_fused_half_prefill_kernel instantiations (which equal session 18's half16 kernels).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s19
scripts/build_kernel_experiments.sh --dist dist/s19 --base \
  half16pre=results/h200/experiments/patches/half-units-16ctas-prefill.patch
tar -C dist -cf - s19 | xz -T2 -3 >dist/s19.tar.xz
ls -la dist/s19.tar.xz
