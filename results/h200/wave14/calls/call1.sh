#!/usr/bin/env bash
# Session 14's round 2 A/B (base = HEAD, kernels as 8ae3308; noslotwait = base +
# experiments/patches/no-slot-wait.patch) on kernel-ab-neoxdecode, -decode and -prefill with the
# base again last, decided by the rule in results/NOTES.md ("Session 14 round 2"); an adopted
# build gets the full validation matrix and the sanitizer set in the same call. The A/B's files are
# packed as soon as it ends (scripts/ab_call.sh), so a call cut short still brings them back.
# Prepared in session 15, whose device budget could not start a machine; for session 16.
# Build with build.sh; carry ["dist/s16a.tar.xz"].
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
AB_CONFIGS="neoxdecode decode prefill" AB_MIN_GAIN=1.5 \
  bash scripts/ab_call.sh dist/s16a.tar.xz s16a c1
