#!/usr/bin/env bash
# Session 21: builds dist/s21a.tar.xz, the base (HEAD) and long-waves-roles100
# (role-major launches in 16 waves from 100 units a thread; results/NOTES.md, "Prepared for
# session 21"). xz -9 in one thread: the binaries share most bytes; tree + carry < 64 MiB.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rm -rf dist/s21a
scripts/build_kernel_experiments.sh --dist dist/s21a --base \
  roles100=results/h200/experiments/patches/long-waves-roles100.patch
tar -C dist -cf - s21a | xz -T1 -9 >dist/s21a.tar.xz
ls -la dist/s21a.tar.xz
