#!/usr/bin/env bash
# Builds what session 19's calls 3 and 4 carry: dist/s19c.tar.xz, s19c/rope-kv-bench built from the
# committed HEAD (half16pre landed, the decode role-warp launch in one helper; ~6 min).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s19c
scripts/build_kernel_experiments.sh --dist dist/s19c --base
tar -C dist -cf - s19c | xz -T2 -3 >dist/s19c.tar.xz
ls -la dist/s19c.tar.xz
