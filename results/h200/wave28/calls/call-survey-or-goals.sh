#!/usr/bin/env bash
# Session 38, calls 6-7 (carry ["dist/s61.tar.xz", "dist/s63.tar.xz"]). The card decides
# (scripts/h200_first.sh):
# - an H200: call-h200-goals-rotating.sh (the goals of HEAD's kernels, then round 44b's A/B);
# - another card: the never-slower survey of HEAD's kernels (s63, 6a11894: strided_rotating
#   landed), SHARDS="K ..." of 8, one after another while the call has time
#   (scripts/never_slower_shards.sh). TAG names the call; $OUT/$TAG.tar.gz is packed after every
#   shard. Calls 6-7 ran the same loop written out here (as ../../wave27/calls/ did); it moved
#   into that script afterwards.
set -u
bash scripts/h200_first.sh results/h200/wave28/calls/call-h200-goals-rotating.sh && exit 0
tar -xJf dist/s63.tar.xz && chmod +x s63/rope-kv-bench
# shellcheck disable=SC2086  # SHARDS is a list of shard numbers
bash scripts/never_slower_shards.sh "$OUT" "${TAG:-call6}" s63 ${SHARDS:?SHARDS=\"K ...\"}
exit 0
