#!/usr/bin/env bash
# Session 18, call 2 (carry ["dist/s18b.tar.xz"]: s18b/rope-kv-bench at 80e5c52 and
# s18b/exp-halfneox, neox-half-units.patch with RKV_NEOX_HALF_UNITS=1, built by
# scripts/build_kernel_experiments.sh --dist dist/s18b --base halfneox=PATCH,-DRKV_NEOX_HALF_UNITS=1;
# the command was sent inline, recorded here): round 2 (results/NOTES.md, "Session 18 round 2"):
# base, halfneox, base again on kernel-ab-partial and kernel-ab-onekv.
set -u
exec > >(tee -a $OUT/call2.log) 2>&1
AB_CONFIGS="partial onekv" AB_PREFER="exp-halfneox" bash scripts/ab_call.sh dist/s18b.tar.xz s18b c2
