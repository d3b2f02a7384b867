#!/usr/bin/env bash
# Session 19, call 1 (carry ["dist/s19.tar.xz"], built by build.sh; ~85 s start + ~230 s): base,
# half16pre, base again on kernel-ab-halfunits, judged on its 9 prefill cases at 3 %; the adopted
# step validates (matrix, sanitizer). If adopted, the never-slower survey's fp8 neox prefill cases
# of 16x2x256, mla:16 and 8x1x64 on it (ns-half16pre.json), for the recount.
set -u
exec > >(tee -a $OUT/call1.log) 2>&1
AB_CONFIGS="halfunits" AB_PREFER="exp-half16pre" bash scripts/ab_call.sh dist/s19.tar.xz s19 c1
if [[ $(tar -xzOf $OUT/c1.tar.gz c1/adopted.txt 2>/dev/null) == exp-half16pre ]]; then
  timeout -s INT -k 30 150 s19/exp-half16pre/rope-kv-bench bench --config configs/never-slower.json \
    --heads 16x2x256,mla:16,8x1x64 --cache-dtype fp8_e4m3 --style neox --tokens 2048,16384,65536 \
    --json $OUT/ns-half16pre.json >$OUT/ns-half16pre.log 2>&1
  echo "survey: exit $?"
fi
exit 0
