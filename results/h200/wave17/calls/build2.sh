#!/usr/bin/env bash
# Builds what session 19's second call carries, from the committed HEAD (~9 min on two cores):
#   dist/s19b.tar.xz  s19b/rope-kv-bench (HEAD), s19b/exp-rolescap (HEAD plus
#                     roles-strided-48regs.patch: the strided role-major neox kernel with an auto
#                     cache bounded to 10 CTAs per SM, 48 registers) and s19b/exp-rolescapw (the same
#                     patch with -DRKV_ROLES_CAP_WIDE=1: the role-major wide kernel bounded too),
#                     judged on roles-strided-48regs.subset.txt and roles-wide-48regs.subset.txt.
# Before the call: cuobjdump -sass of the three binaries identical but for the new
# rope_kv_fused_roles_{strided,wide}_kernel instantiations and the kernels they replace.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s19b
p=results/h200/experiments/patches
scripts/build_kernel_experiments.sh --dist dist/s19b --base rolescap=$p/roles-strided-48regs.patch \
  rolescapw=$p/roles-strided-48regs.patch,-DRKV_ROLES_CAP_WIDE=1
cp $p/roles-wide-48regs.subset.txt dist/s19b/exp-rolescapw/subset.txt
tar -C dist -cf - s19b | xz -T2 -3 >dist/s19b.tar.xz
ls -la dist/s19b.tar.xz
