#!/usr/bin/env bash
# Session 19, call 2 (carry ["dist/s19b.tar.xz"], built by build2.sh; ~300 s A/B + ~75 s
# validation + the survey): base, rolescap, rolescapw, base again on kernel-ab-partial, each judged
# on its own subset at 3 % (results/NOTES.md, "Session 19 round 2"); the adopted step validates
# (matrix, sanitizer). If one is adopted, the never-slower survey's auto neox partial-rotary
# prefill cases on it (ns-rolescap.json), for the recount.
set -u
exec > >(tee -a $OUT/call2.log) 2>&1
AB_CONFIGS="partial" AB_PREFER="exp-rolescapw exp-rolescap" bash scripts/ab_call.sh dist/s19b.tar.xz s19b c2
pick=$(tar -xzOf $OUT/c2.tar.gz c2/adopted.txt 2>/dev/null)
if [[ $pick == exp-rolescap* ]]; then
  timeout -s INT -k 20 150 s19b/$pick/rope-kv-bench bench --config configs/never-slower.json \
    --heads 32x32x128,32x8x128,64x8x128,28x4x128,16x2x256,40x8x80,8x1x64,mla:16 --cache-dtype auto \
    --style neox --rot-dim half,64 --tokens 16384,65536 \
    --json $OUT/ns-rolescap.json >$OUT/ns-rolescap.log 2>&1
  echo "survey: exit $?"
fi
exit 0
