#!/usr/bin/env bash
# Shards of configs/never-slower.json, one after another, inside one device call: each shard is
# `scripts/device_run.sh never-slower` (NS_SHARD=K of NS_SHARDS), and after each the call's folder
# is packed again, so a call cut short still brings back every shard it finished.
#   scripts/never_slower_shards.sh OUT TAG BIN K [K ...]
#   OUT  the call's output folder ($OUT on the GPU box)
#   TAG  names this call: OUT/TAG/ holds ns/ (the shard reports), log.txt and shards.txt (the
#        shards finished, one a line); OUT/TAG.tar.gz is that folder, packed after every shard
#   BIN  folder holding rope-kv-bench
#   K    shard numbers, 1..NS_SHARDS
# env: NS_SHARDS (default 8); CALL_LIMIT_S (default 580: the call's seconds, counted from this
#      script's start) and SHARD_S (default 100: what a shard may take); a shard starts only while
#      SHARD_S still fits before CALL_LIMIT_S, and each step is bounded to SHARD_S + 10 s.
# Exit 0 (each shard's exit is in OUT/TAG/log.txt); 4 with one line on a bad argument.
set -u
usage() {
  sed -n '2,16s/^# \{0,1\}//p' "$0" >&2
  exit 4
}
(($# >= 4)) || usage
out=$1 tag=$2 bin=$3
shift 3
shards=${NS_SHARDS:-8} limit=${CALL_LIMIT_S:-580} shard_s=${SHARD_S:-100}
[[ $tag =~ ^[A-Za-z0-9_.-]+$ ]] ||
  { echo "never_slower_shards: TAG '$tag' is not letters, digits, '.', '_', '-'" >&2; exit 4; }
[[ -x $bin/rope-kv-bench ]] ||
  { echo "never_slower_shards: $bin/rope-kv-bench: not an executable" >&2; exit 4; }
for n in "$shards" "$limit" "$shard_s"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] ||
    { echo "never_slower_shards: NS_SHARDS, CALL_LIMIT_S, SHARD_S must be positive integers" >&2; exit 4; }
done
for k in "$@"; do
  [[ $k =~ ^[1-9][0-9]*$ ]] && ((k <= shards)) ||
    { echo "never_slower_shards: shard '$k' is not in 1..$shards" >&2; exit 4; }
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/$tag" || { echo "never_slower_shards: cannot create $out/$tag" >&2; exit 4; }
out=$(cd "$out" && pwd)
bin=$(cd "$bin" && pwd)  # device_run.sh works from the repository root
work=$out/$tag
# A temporary name, then a rename: the tarball is never half-written.
pack() { tar -C "$out" -czf "$out/$tag.tar.gz.tmp" "$tag" && mv "$out/$tag.tar.gz.tmp" "$out/$tag.tar.gz"; }
for k in "$@"; do
  if ((SECONDS + shard_s > limit)); then
    echo "shard $k: not started, $((limit - SECONDS)) s left of the call" | tee -a "$work/log.txt"
    continue
  fi
  NS_SHARD=$k NS_SHARDS=$shards BIN=$bin OUT=$work/ns STEP_TIMEOUT=$((shard_s + 10)) \
    bash "$here/device_run.sh" never-slower >>"$work/log.txt" 2>&1
  echo "shard $k: exit $? ($SECONDS s)" | tee -a "$work/log.txt"
  echo "$k" >>"$work/shards.txt"
  pack
done
exit 0
