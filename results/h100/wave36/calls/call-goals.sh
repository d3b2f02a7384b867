#!/usr/bin/env bash
# Session 48: issue 12's goals of HEAD's kernels after round 63, on the card the call gets
# (results/h200/wave24/calls/goals.sh: seed, pdl, floor-line). Carry ["dist/w64.tar.xz"]:
# s88/rope-kv-bench, the landed build (588bc7d; tar -C dist -cf - s88/rope-kv-bench | xz -9).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
GOALS_TARBALL=dist/w64.tar.xz GOALS_DIR=s88 bash results/h200/wave24/calls/goals.sh
