#!/usr/bin/env bash
# Prepared in session 49 for the next session's first call (results/NOTES.md, "For session 50").
# Carry ["dist/w67.tar.xz", "dist/w68.tar.xz"] (3.36 + 1.63 MB beside a 54.8 MB tree; the headers
# of results/h200/wave35/calls/call-rounds-62-64-h200.sh and call-s49-1.sh say how each is made).
# - On an H200 (about 450 s): rounds 62-64's A/B (call-rounds-62-64-h200.sh, verdicts only), then
#   round 65's in one round (base, exp-ll150, exp-ll100, base again; verdicts only). The goals of
#   HEAD and the matrix and sanitizer of whatever adopts go in the next call on the warm machine.
# - Elsewhere (an H100, about 300 s): round 65 as call-s49-1.sh runs it (two rounds, the matrix and
#   the sanitizer on the adopted build).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ $card != *H200* ]]; then
  exec bash results/h100/wave37/calls/call-s49-1.sh
fi
bash results/h200/wave35/calls/call-rounds-62-64-h200.sh
mkdir -p "$OUT/r65" && OUT=$OUT/r65 S49_ADOPTED_STEPS=info \
  bash results/h100/wave37/calls/call-s49-2.sh
mv "$OUT/r65/ab.tar.gz" "$OUT/ab-round65.tar.gz" 2>/dev/null
mv "$OUT/r65/ab-ab.tar.gz" "$OUT/ab-round65-ab.tar.gz" 2>/dev/null
rmdir "$OUT/r65" 2>/dev/null
echo "call-s50-1 done ($SECONDS s)"
