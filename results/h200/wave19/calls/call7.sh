#!/usr/bin/env bash
# Session 21, call 7 (carry ["dist/s21d.tar.xz"]; sent as one command line, recorded here): with
# the 107 s left and the machine still warm after call 6, the round 7 build validated: full matrix,
# then memcheck, initcheck and synccheck (racecheck left out for time: the fused kernels use no
# shared memory, which is what it checks). $OUT/call7.tar.gz.
tar -xJf dist/s21d.tar.xz && chmod +x s21d/exp-fp8neox/rope-kv-bench && mkdir -p $OUT/v &&
  (STEP_TIMEOUT=75 BIN=s21d/exp-fp8neox OUT=$OUT/v bash scripts/device_run.sh matrix >$OUT/v/run.txt 2>&1
   SANITIZER_TOOLS="memcheck initcheck synccheck" SANITIZER_TIMEOUT=8 BIN=s21d/exp-fp8neox OUT=$OUT/v \
     bash scripts/device_run.sh sanitize >>$OUT/v/run.txt 2>&1)
tail -3 $OUT/v/run.txt
tar -C $OUT -czf $OUT/call7.tar.gz v && rm -rf $OUT/v
