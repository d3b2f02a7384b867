#!/usr/bin/env bash
# Session 54's last call, for the 333 s of device time left after its H100 call (rounds 62 and 64
# rejected there, results/h100/wave38/rounds-62-64-ab-45a3c7a/) and a machine taken back mid-call.
# Carry ["dist/w72.tar.xz"].
# On an H200: call-s53-3.sh's H200 branch (the floor probe in place and the goals of HEAD's
# kernels, about 230 s).
# On an H100: that card's goals, A/B and round 65's moved cases are in results/h100/wave38/; what
# it has not run on HEAD's build is the never-slower survey, so shards of it (8 in all, each
# packed as it ends as $OUT/ns-K.tar.gz) while S54_END (default 200 s) leaves 70 s a shard.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
[[ $card == *H200* ]] && exec bash results/h200/wave36/calls/call-s53-3.sh
end=${S54_END:-200}
tar -xJf dist/w72.tar.xz || { echo "call-s54-1: cannot unpack dist/w72.tar.xz"; exit 4; }
chmod +x s97/rope-kv-bench
bin=$(cd s97 && pwd)
for ((k = 1; k <= 8; k++)); do
  ((SECONDS + 70 <= end)) || { echo "shard $k: skipped, $SECONDS s gone"; break; }
  mkdir -p "$OUT/ns-$k"
  BIN=$bin OUT=$OUT/ns-$k NS_SHARD=$k NS_SHARDS=8 STEP_TIMEOUT=$((end - SECONDS - 5)) \
    bash scripts/device_run.sh never-slower
  echo "shard $k: exit $? ($SECONDS s)"
  tar -C "$OUT" -czf "$OUT/ns-$k.tar.gz" "ns-$k" && rm -rf "${OUT:?}/ns-$k"
done
echo "call-s54-1 done on $card ($SECONDS s)"
