#!/usr/bin/env bash
# Session 20, call 5 (carry ["dist/s20c.tar.xz"]: s20b's base, code-identical to HEAD, and
# long-waves-200 built from 9e2f372): round 3's A/B on kernel-ab-stride, base first and last, and
# the adopted build's validation (matrix, sanitizer), packed by ab_call.sh. About 120 + 85 s.
set -u
AB_CONFIGS="stride" bash scripts/ab_call.sh dist/s20c.tar.xz s20c longwaves200
exit 0
