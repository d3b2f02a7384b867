#!/usr/bin/env bash
# Session 18, call 5 (carry ["dist/s18d.tar.xz"]: s18d/rope-kv-bench at 6d4545b and s18d/exp-half16,
# half-units-16ctas.patch, built by scripts/build_kernel_experiments.sh --dist dist/s18d --base
# half16=PATCH; sent inline, recorded here): round 4 (results/NOTES.md, "Session 18 round 4"):
# base, half16, base again on kernel-ab-halfunits.
set -u
exec > >(tee -a $OUT/call5.log) 2>&1
AB_CONFIGS="halfunits" AB_PREFER="exp-half16" bash scripts/ab_call.sh dist/s18d.tar.xz s18d c5
