#!/usr/bin/env bash
# Session 24, call 3 (carry ["dist/s24c.tar.xz"]: base = the kernels of HEAD (s24a's base binary),
# exp-hv = base + row-warp-half-width.patch; round 19 in results/NOTES.md).
# 1. Round 19 by the tool: two interleaved rounds over the 26 moved cases (graph mode), the rule,
#    then the adopted build's matrix and sanitizer set. $OUT/c3.tar.gz
# 2. Where adopted: the PDL table on both builds (base first) and the seed table on the adopted
#    build. $OUT/c3-after.tar.gz
set -u
AB_ROUNDS=2 AB_CASES=results/h200/wave22/calls/call3-cases.txt \
  bash scripts/ab_call.sh dist/s24c.tar.xz s24c c3
echo "ab_call done ($SECONDS s)"
adopted=$(tar -xzf $OUT/c3.tar.gz -O c3/adopted.txt 2>/dev/null | head -1)
[[ $adopted == exp-* && -x s24c/$adopted/rope-kv-bench ]] || exit 0
A=$OUT/c3-after
mkdir -p $A
for b in base $adopted; do
  bin=s24c
  [[ $b == base ]] || bin=s24c/$b
  ((SECONDS + 90 < 590)) || break
  STEP_TIMEOUT=80 BIN=$bin OUT=$A/pdl-$b bash scripts/device_run.sh pdl >>$A/log.txt 2>&1
  echo "pdl $b: exit $? ($SECONDS s)" | tee -a $A/log.txt
done
if ((SECONDS + 70 < 590)); then
  STEP_TIMEOUT=60 BIN=s24c/$adopted OUT=$A/seed bash scripts/device_run.sh seed >>$A/log.txt 2>&1
  echo "seed: exit $? ($SECONDS s)" | tee -a $A/log.txt
fi
tar -C $OUT -czf $OUT/c3-after.tar.gz c3-after && rm -rf $A
exit 0
