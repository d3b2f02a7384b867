#!/usr/bin/env bash
# Decode-size A/B (base = HEAD): noslotwait (session 14's round 2, experiments/patches/
# no-slot-wait.patch, rule in results/NOTES.md "Session 14 round 2") and rolewarps
# (experiments/patches/decode-role-warps.patch, rule in "Session 16 round 2"), on
# kernel-ab-neoxdecode, -decode, -prefill and -unitdecode with the base again last, each judged on
# its own subset at 1.5 %; the first adopted of noslotwait, rolewarps gets the validation matrix
# and the sanitizer set in the same call (the other, if adopted too, in the next call). The A/B's
# files are packed as soon as it ends (scripts/ab_call.sh), so a call cut short still brings them
# back. Prepared in session 15, whose device budget could not start a machine. Build with
# build.sh; carry ["dist/s16a.tar.xz"].
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
AB_CONFIGS="neoxdecode decode prefill unitdecode" AB_MIN_GAIN=1.5 \
  AB_PREFER="exp-noslotwait exp-rolewarps" \
  bash scripts/ab_call.sh dist/s16a.tar.xz s16a c1
