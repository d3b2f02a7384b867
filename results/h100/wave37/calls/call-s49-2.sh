#!/usr/bin/env bash
# Session 49, the last call: round 65's A/B on whichever card comes, cut to the device time left
# after thirteen failed starts (389 s, a start included). Carry ["dist/w68.tar.xz"], assembled as
# call-s49-1.sh says. One round (base, exp-ll150, exp-ll100, base again) instead of the two the
# rule named, and the adopted build's matrix only (no sanitizer; S49_ADOPTED_STEPS=info: none); the A/B is packed first
# ($OUT/ab-ab.tar.gz) so a call cut short still brings it back.
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
tar -xJf dist/w68.tar.xz && cp s92/exp-tw63/rope-kv-bench s93/rope-kv-bench ||
  { echo "call-s49-2: cannot assemble s93 from dist/w68.tar.xz"; exit 4; }
ADOPTED_STEPS=${S49_ADOPTED_STEPS:-matrix} AB_ROUNDS=1 AB_MIN_GAIN=2 AB_PREFER="exp-ll100 exp-ll150" \
  AB_CASES=results/h100/wave37/calls/long-launch-cases.txt \
  bash scripts/ab_call.sh dist/w68.tar.xz s93 ab
echo "adopted: $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown) ($SECONDS s)"
