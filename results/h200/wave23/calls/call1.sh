#!/usr/bin/env bash
# Prepared in session 25 (no device lent), for the first call of the next session that has one;
# round 20 in results/NOTES.md. Build first, here:
#   scripts/build_kernel_experiments.sh --dist dist/s26a --base \
#     rwc=results/h200/experiments/patches/row-warp-compact-params.patch
#   tar -C dist -cf - s26a | xz -T2 -9 > dist/s26a.tar.xz
# and call with carry ["dist/s26a.tar.xz"]: base = HEAD's kernels, exp-rwc = base + the patch.
# 1. Round 20 by the tool: two interleaved rounds over the 38 row-warp cases (graph mode), the
#    rule, then the adopted build's matrix and sanitizer set. $OUT/c1.tar.gz
# 2. The PDL table on both builds, base first (reported whatever the verdict). $OUT/c1-pdl.tar.gz
# 3. Where round 20 is adopted: the seed table on that build (the decode line). $OUT/c1-seed.tar.gz
set -u
AB_ROUNDS=2 AB_CASES=results/h200/wave23/calls/call1-cases.txt \
  bash scripts/ab_call.sh dist/s26a.tar.xz s26a c1
echo "ab_call done ($SECONDS s)"
adopted=$(tar -xzf $OUT/c1.tar.gz -O c1/adopted.txt 2>/dev/null | head -1)
P=$OUT/c1-pdl
mkdir -p $P
for b in base exp-rwc; do
  bin=s26a
  [[ $b == base ]] || bin=s26a/$b
  ((SECONDS + 90 < 590)) || break
  STEP_TIMEOUT=80 BIN=$bin OUT=$P/$b bash scripts/device_run.sh pdl >>$P/log.txt 2>&1
  echo "pdl $b: exit $? ($SECONDS s)" | tee -a $P/log.txt
done
tar -C $OUT -czf $OUT/c1-pdl.tar.gz c1-pdl && rm -rf $P
if [[ $adopted == exp-* && -x s26a/$adopted/rope-kv-bench ]] && ((SECONDS + 70 < 590)); then
  S=$OUT/c1-seed
  mkdir -p $S
  STEP_TIMEOUT=60 BIN=s26a/$adopted OUT=$S bash scripts/device_run.sh seed >>$S/log.txt 2>&1
  echo "seed: exit $? ($SECONDS s)" | tee -a $S/log.txt
  tar -C $OUT -czf $OUT/c1-seed.tar.gz c1-seed && rm -rf $S
fi
exit 0
