#!/usr/bin/env bash
# Session 45: the never-slower survey (configs/never-slower.json, 8 shards, about 60-80 s a shard
# on an H200) of one build of the s83 carry, after rounds 57/58, so the H200 has a whole survey
# of the build an A/B adopted. Carry ["dist/w51.tar.xz"].
#   call-survey-shards.sh BUILD FIRST LAST   BUILD: s83 (the base) or s83/exp-NAME
# $OUT/ns-FIRST-LAST.tar.gz holds never-slower-shard-K-of-8.json and .log for K in FIRST..LAST;
# merged here by `rope-kv-bench merge`, checked by scripts/check_never_slower.py.
set -u
build=$1 first=$2 last=$3
[[ -d s83 ]] || tar -xJf dist/w51.tar.xz || { echo "cannot unpack dist/w51.tar.xz"; exit 4; }
chmod +x s83/rope-kv-bench s83/*/rope-kv-bench
nvidia-smi --query-gpu=name --format=csv,noheader
bin=$(cd "$build" && pwd)
mkdir -p "$OUT/ns"
for ((k = first; k <= last; k++)); do
  BIN=$bin OUT=$OUT/ns NS_SHARD=$k NS_SHARDS=8 STEP_TIMEOUT=140 \
    bash scripts/device_run.sh never-slower
  echo "shard $k done ($SECONDS s)"
done
tar -C "$OUT" -czf "$OUT/ns-$first-$last.tar.gz" ns && rm -rf "${OUT:?}/ns"
exit 0
