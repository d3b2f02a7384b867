#!/usr/bin/env bash
# Session 22, call 3 (carry ["dist/s22b.tar.xz"]: dist/s22b/rope-kv-bench = the landed HEAD, rounds
# 8-10, built with build_kernel_experiments.sh --base). Validation first: full matrix, the four
# sanitizer tools (racecheck with the time it needs), memcheck on a launch of each new route the
# matrix's sizes do not reach (round 10's waves; rounds 8-9 were memchecked on exp-both in call
# 1). Then, on the same build: the floor cells of issue 12 (bf16 and fp16, auto and fp8, 32x32x128,
# 32x8x128, 64x8x128, mla:16, mla:128, both styles, full rotary, nhd, 16k and 65k tokens, cold,
# never-slower.json's timing), the seed table (decode lines) and the PDL config. One tarball,
# $OUT/call3.tar.gz, packed after every step.
set -u
tar -xJf dist/s22b.tar.xz && chmod +x s22b/rope-kv-bench
bin=s22b
W=$OUT/call3
mkdir -p $W/validate
pack() { tar -C $OUT -czf $OUT/call3.tar.gz.tmp call3 && mv $OUT/call3.tar.gz.tmp $OUT/call3.tar.gz; }
STEP_TIMEOUT=75 BIN=$bin OUT=$W/validate bash scripts/device_run.sh matrix >>$W/log.txt 2>&1
echo "matrix: exit $? ($SECONDS s)" | tee -a $W/log.txt
SANITIZER_TOOLS="memcheck initcheck synccheck racecheck" SANITIZER_TIMEOUT=60 BIN=$bin \
  OUT=$W/validate bash scripts/device_run.sh sanitize >>$W/log.txt 2>&1
echo "sanitize: exit $? ($SECONDS s)" | tee -a $W/log.txt
for id in 'bf16|auto|40x8x80|gptj|nhd|N=65536|rot=64' 'bf16|fp8_e4m3|40x8x80|gptj|packed_nhd|N=65536'; do
  timeout -s INT -k 10 50 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $bin/rope-kv-bench validate --case "$id" >>$W/validate/memcheck-moved.txt 2>&1
  echo "memcheck $id: exit $? ($SECONDS s)" | tee -a $W/log.txt
done
pack
timeout -s INT -k 10 200 $bin/rope-kv-bench bench --config configs/never-slower.json \
  --dtype bf16,fp16 --cache-dtype auto,fp8_e4m3 --heads 32x32x128,32x8x128,64x8x128,mla:16,mla:128 \
  --style neox,gptj --rot-dim full --layout nhd --tokens 16384,65536 --mode cold \
  --json $W/floor.json >$W/floor.txt 2>&1
echo "floor: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
STEP_TIMEOUT=60 BIN=$bin OUT=$W/seed bash scripts/device_run.sh seed >>$W/log.txt 2>&1
echo "seed: exit $? ($SECONDS s)" | tee -a $W/log.txt
pack
((SECONDS + 150 < 590)) && {
  STEP_TIMEOUT=150 BIN=$bin OUT=$W/pdl bash scripts/device_run.sh pdl >>$W/log.txt 2>&1
  echo "pdl: exit $? ($SECONDS s)" | tee -a $W/log.txt
}
pack
exit 0
