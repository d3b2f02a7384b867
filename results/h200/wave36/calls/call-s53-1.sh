#!/usr/bin/env bash
# Session 53's first call, everything in one start (each failed start costs 90-180 s of device
# time). Carry ["dist/w72.tar.xz", "dist/w74.tar.xz"] (both untracked; results/NOTES.md,
# "Session 53", says how they are made).
# On any card: call-s51-2.sh's any-card steps (the GPU tests of c8dc624, the floor command's CLI
# test, the floor probe's four copy kernels, the eight bf16 MLA cells at 65k), then the goals of
# HEAD's kernels ($OUT/goals.tar.gz; on an H100, that card's first count after round 65).
# On an H200 then, while S53_END (default 585 s) leaves room: rounds 62 and 64 judged on HEAD's
# kernels with the adopted build's matrix and sanitizer (call-s53-ab.sh: $OUT/ab.tar.gz,
# $OUT/ns-adopted.tar.gz), then round 65's 34 never-slower moved cases ($OUT/ns-moved.tar.gz).
S51_ANY_CARD_ONLY=1 bash results/h100/wave38/calls/call-s51-2.sh || exit
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
GOALS_TARBALL=dist/w72.tar.xz GOALS_DIR=s97 bash results/h200/wave24/calls/goals.sh
[[ $card == *H200* ]] || { echo "call-s53-1 done on $card ($SECONDS s)"; exit 0; }
end=${S53_END:-585}
if ((SECONDS <= end - 200)); then
  S53_END=$((end - SECONDS)) bash results/h200/wave36/calls/call-s53-ab.sh
else
  echo "rounds 62 and 64: skipped, $SECONDS s gone"
fi
if ((SECONDS <= end - 100)); then
  OUT=$OUT timeout $((end - SECONDS)) bash scripts/never_slower_cases.sh s97/rope-kv-bench \
    results/h100/wave37/calls/never-slower-moved-ll100.txt ns-moved
  echo "ns-moved: exit $? ($SECONDS s)"
else
  echo "ns-moved: skipped, $SECONDS s gone"
fi
echo "call-s53-1 done ($SECONDS s)"
