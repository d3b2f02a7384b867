#!/usr/bin/env bash
# Session 23, call 4 (carry ["dist/s23c.tar.xz"]): on the build round 14 adopted (exp-mhaw, the
# landed kernels): racecheck again with room (call 3's 10 s per tool ran out before racecheck's
# summary), the PDL table (its fp8 32x32x128 row at 2048 tokens moved to flat_wide), and the seed
# table a second time (against call 3's, for the run-to-run comparison). $OUT/call4.tar.gz.
set -u
tar -xJf dist/s23c.tar.xz && chmod +x s23c/rope-kv-bench s23c/exp-*/rope-kv-bench
bin=s23c/exp-mhaw
W=$OUT/call4
mkdir -p $W
pack() { tar -C $OUT -czf $OUT/call4.tar.gz.tmp call4 && mv $OUT/call4.tar.gz.tmp $OUT/call4.tar.gz; }
SANITIZER_TOOLS="racecheck" SANITIZER_TIMEOUT=150 BIN=$bin OUT=$W/validate \
  bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
echo "racecheck: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
STEP_TIMEOUT=200 BIN=$bin OUT=$W/pdl bash scripts/device_run.sh pdl >>$W/log.txt 2>&1
echo "pdl: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
((SECONDS + 70 < 590)) && {
  STEP_TIMEOUT=60 BIN=$bin OUT=$W/seed bash scripts/device_run.sh seed2 >>$W/log.txt 2>&1
  echo "seed2: exit $? ($SECONDS s)" | tee -a $W/log.txt
}
pack
exit 0
