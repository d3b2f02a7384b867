#!/usr/bin/env bash
# Session 52: call-s51-2.sh (results/h100/wave38/calls/) with the H200 steps reordered for a call
# shorter than 600 s (eleven starts of this session found no machine, leaving under 540 s of
# device time): the goals of HEAD's kernels before round 65's never-slower moved cases, each
# later step only while S52_END (default 585 s) leaves it room. Carry ["dist/w72.tar.xz"]
# (add "dist/w67.tar.xz" for rounds 62-64; w72 and w67 are made as call-s51-2.sh says).
# On any card: the GPU tests of c8dc624, the floor command's CLI test, the floor probe's four
# copy kernels and the eight bf16 MLA cells at 65k. On an H200 then: the goals
# ($OUT/goals.tar.gz), the never-slower moved cases ($OUT/ns-moved.tar.gz), rounds 62-64 in one
# round if 195 s are left ($OUT/ab.tar.gz).
S51_ANY_CARD_ONLY=1 bash results/h100/wave38/calls/call-s51-2.sh || exit
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
[[ $card == *H200* ]] || { echo "call-s52-1 done on $card ($SECONDS s)"; exit 0; }
GOALS_TARBALL=dist/w72.tar.xz GOALS_DIR=s97 bash results/h200/wave24/calls/goals.sh
end=${S52_END:-585}
if ((SECONDS <= end - 120)); then
  OUT=$OUT timeout $((end - SECONDS)) bash scripts/never_slower_cases.sh s97/rope-kv-bench \
    results/h100/wave37/calls/never-slower-moved-ll100.txt ns-moved
  echo "ns-moved: exit $? ($SECONDS s)"
else
  echo "ns-moved: skipped, $SECONDS s gone"
fi
if [[ -f dist/w67.tar.xz ]] && ((SECONDS <= end - 195)); then
  ADOPTED_STEPS=info AB_ROUNDS=1 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-twg exp-tw63" \
    AB_CASES=results/h200/wave35/calls/rounds-62-64-cases.txt \
    timeout --signal=INT $((end - SECONDS)) bash scripts/ab_call.sh dist/w67.tar.xz s92 ab
  echo "rounds 62-64: adopted $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown)"
else
  echo "rounds 62-64: skipped (w67 not carried, or $SECONDS s gone)"
fi
echo "call-s52-1 done ($SECONDS s)"
