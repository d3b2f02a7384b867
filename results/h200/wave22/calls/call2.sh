#!/usr/bin/env bash
# Session 24, call 2 (carry ["dist/s24b.tar.xz"]: base = the kernels of HEAD (s24a's base binary,
# built at 8623f38; kernels/ unchanged since), exp-pre = base + row-warp-addresses-before-wait.patch;
# round 18 in results/NOTES.md).
# 1. Round 18 by the tool: two interleaved rounds over the 38 row-warp cases (graph mode), the
#    rule, then the adopted build's matrix and sanitizer set. $OUT/c2.tar.gz
# 2. The PDL table on both builds, base first (the added time with and without PDL is the second
#    half of the prediction). $OUT/c2-pdl.tar.gz
# 3. Where round 18 is adopted: the seed table on that build (the decode line). $OUT/c2-seed.tar.gz
set -u
AB_ROUNDS=2 AB_CASES=results/h200/wave22/calls/call2-cases.txt \
  bash scripts/ab_call.sh dist/s24b.tar.xz s24b c2
echo "ab_call done ($SECONDS s)"
adopted=$(tar -xzf $OUT/c2.tar.gz -O c2/adopted.txt 2>/dev/null | head -1)
P=$OUT/c2-pdl
mkdir -p $P
for b in base exp-pre; do
  bin=s24b
  [[ $b == base ]] || bin=s24b/$b
  ((SECONDS + 90 < 590)) || break
  STEP_TIMEOUT=80 BIN=$bin OUT=$P/$b bash scripts/device_run.sh pdl >>$P/log.txt 2>&1
  echo "pdl $b: exit $? ($SECONDS s)" | tee -a $P/log.txt
done
tar -C $OUT -czf $OUT/c2-pdl.tar.gz c2-pdl && rm -rf $P
if [[ $adopted == exp-* && -x s24b/$adopted/rope-kv-bench ]] && ((SECONDS + 70 < 590)); then
  S=$OUT/c2-seed
  mkdir -p $S
  STEP_TIMEOUT=60 BIN=s24b/$adopted OUT=$S bash scripts/device_run.sh seed >>$S/log.txt 2>&1
  echo "seed: exit $? ($SECONDS s)" | tee -a $S/log.txt
  tar -C $OUT -czf $OUT/c2-seed.tar.gz c2-seed && rm -rf $S
fi
exit 0
