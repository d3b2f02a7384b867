#!/usr/bin/env bash
# Builds what session 16's calls carry, from the committed HEAD (run from the repository root after
# scripts/install-deps.sh; ~15 min on two cores):
#   dist/s16a.tar.xz  s16a/rope-kv-bench (HEAD) + s16a/exp-noslotwait, exp-rolewarps
#                                                                (call1.sh: decode, two changes)
#   dist/s16b.tar.xz  s16b/rope-kv-bench (HEAD) + s16b/exp-pf1, exp-pf1fp8, exp-pf2
#                                                                          (call2.sh: prefetch)
# Each tarball's base is the same HEAD binary; the experiments are HEAD plus a patch (and knob).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
export PATH=/usr/local/cuda/bin:$PATH
P=results/h200/experiments/patches
cmake -S . -B build -G Ninja -DRKV_WERROR=ON -DRKV_BUILD_TESTS=ON -DRKV_BUILD_PYTHON=OFF >/dev/null
cmake --build build -j"$(nproc)" --target rope-kv-bench >/dev/null
rm -rf dist/s16a dist/s16b
mkdir -p dist/s16a dist/s16b
for d in s16a s16b; do cp build/rope-kv-bench dist/$d/ && strip dist/$d/rope-kv-bench; done
scripts/build_kernel_experiments.sh --dist dist/s16a noslotwait=$P/no-slot-wait.patch \
  rolewarps=$P/decode-role-warps.patch
scripts/build_kernel_experiments.sh --dist dist/s16b \
  pf1=$P/prefetch-next.patch,-DRKV_PREFETCH_NEXT=1 pf2=$P/prefetch-next.patch,-DRKV_PREFETCH_NEXT=2 \
  pf1fp8=$P/prefetch-next.patch,-DRKV_PREFETCH_NEXT=1,-DRKV_FP8_ROLES_STRIDED=1
# pf1fp8 also changes the fp8 role-major launches: judged on those too.
cp $P/prefetch-next-fp8.subset.txt dist/s16b/exp-pf1fp8/subset.txt
for d in s16a s16b; do tar -C dist -cJf dist/$d.tar.xz $d; done
ls -la dist/s16a.tar.xz dist/s16b.tar.xz
