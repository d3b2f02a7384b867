#!/usr/bin/env bash
# Session 23, call 6 (carry ["dist/s23e.tar.xz"]: base = 0902e99, exp-mhar = 0902e99 +
# fp8-mha-roles-flat-long.patch; round 16 in results/NOTES.md): the A/B by the tool, two interleaved
# rounds over the 2 moved cases, then the adopted build's matrix and sanitizer set.
# $OUT/c6.tar.gz.
AB_ROUNDS=2 AB_CASES=results/h200/wave21/calls/call6-cases.txt AB_SUBSET=moved \
  bash scripts/ab_call.sh dist/s23e.tar.xz s23e c6
