#!/usr/bin/env bash
# Session 18, call 3 (carry ["dist/s18c.tar.xz"], built by build3.sh; ~85 s start + ~400 s):
# round 3 (results/NOTES.md, "Session 18 round 3"): base, halfnarrow, base again on
# kernel-ab-halfunits, judged on its subset at 3 %; the adopted step validates (matrix,
# sanitizer). If halfnarrow is adopted, the never-slower survey's fp8 neox cases of the three
# shapes it moves beyond decode sizes run on it (ns-halfunits.json).
set -u
exec > >(tee -a $OUT/call3.log) 2>&1
AB_CONFIGS="halfunits" AB_PREFER="exp-halfnarrow" bash scripts/ab_call.sh dist/s18c.tar.xz s18c c3
if [[ $(tar -xzOf $OUT/c3.tar.gz c3/adopted.txt 2>/dev/null) == exp-halfnarrow ]]; then
  timeout -s INT -k 30 150 s18c/exp-halfnarrow/rope-kv-bench bench --config configs/never-slower.json \
    --heads 16x2x256,mla:16,8x1x64 --cache-dtype fp8_e4m3 --style neox \
    --json $OUT/ns-halfunits.json >$OUT/ns-halfunits.log 2>&1
  echo "half-units survey: exit $?"
fi
exit 0
