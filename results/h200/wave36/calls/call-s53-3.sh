#!/usr/bin/env bash
# Session 53's last call, for the 327 s of device time left after eight failed starts: a call of
# at most about 230 s. Carry ["dist/w72.tar.xz", "dist/w74.tar.xz"].
# On an H200: the floor probe in place (MLA's ceilings there; $OUT/floor.tar.gz) and the goals of
# HEAD's kernels ($OUT/goals.tar.gz): with floor-line.json, scripts/mla_ceiling.py answers
# whether mla:128's 90 % line is within an in-place kernel's reach on that card.
# On an H100: rounds 62 and 64 on HEAD's kernels, one round, the verdicts alone (no matrix:
# an adoption is validated in a later call before it lands).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card == *H200* ]]; then
  tar -xJf dist/w72.tar.xz || { echo "call-s53-3: cannot unpack dist/w72.tar.xz"; exit 4; }
  chmod +x s97/rope-kv-bench
  mkdir -p "$OUT/floor"
  timeout 60 s97/rope-kv-bench floor --patterns 128/384,384/384,128/256,256/256,1152/1152 \
    --in-place --json "$OUT/floor/floor-in-place.json" >"$OUT/floor/floor-in-place.txt" 2>&1
  echo "floor in place: exit $? ($SECONDS s)"; cat "$OUT/floor/floor-in-place.txt"
  tar -C "$OUT" -czf "$OUT/floor.tar.gz" floor && rm -rf "${OUT:?}/floor"
  GOALS_TARBALL=dist/w72.tar.xz GOALS_DIR=s97 bash results/h200/wave24/calls/goals.sh
else
  AB_CONFIRM=0 ADOPTED_STEPS=info AB_ROUNDS=1 ANY_CARD=1 S53_END=${S53_END:-220} \
    bash results/h200/wave36/calls/call-s53-ab.sh
fi
echo "call-s53-3 done on $card ($SECONDS s)"
