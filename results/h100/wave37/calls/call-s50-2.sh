#!/usr/bin/env bash
# Session 50, after round 65 landed (e4f6fa3; results/NOTES.md, "Session 50"). Carry
# ["dist/w69.tar.xz", "dist/w67.tar.xz"]. w69 holds s94/rkv_tests and s94/rope-kv-bench, the
# landing's test and bench binaries (built in /work/main at cef68a2, stripped):
#   tar -C dist -cf - s94 | xz -T2 -9 > dist/w69.tar.xz
# w67 is rounds 62-64's builds (results/h200/wave35/calls/call-rounds-62-64-h200.sh says how).
# On any card, in order of what matters, each packed as soon as it ends (a call cut short still
# brings back what finished):
# 1. every GPU test of the landing's test binary ($OUT/gpu-tests.tar.gz);
# 2. the never-slower survey's 34 cases whose launch round 65 moves (never-slower-moved-ll100.txt:
#    the host model's 18 nhd launches at H200 occupancy, and their packed_nhd twins), with the
#    landing's bench, checked on their own ($OUT/ns-moved.tar.gz);
# On an H200 only:
# 3. issue 12's goals on the landing (results/h200/wave24/calls/goals.sh; $OUT/goals.tar.gz);
# 4. rounds 62-64's A/B in one round (the session-48 rule asked two; $OUT/ab.tar.gz), if at least
#    200 s of the call's 590 are left.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
tar -xJf dist/w69.tar.xz || { echo "call-s50-2: cannot unpack dist/w69.tar.xz"; exit 4; }
chmod +x s94/rope-kv-bench s94/rkv_tests
OUT=$OUT bash scripts/device_gpu_tests.sh s94/rkv_tests /work/main gpu-tests
echo "gpu tests: exit $? ($SECONDS s)"
mkdir -p "$OUT/ns-moved"
mapfile -t cases < results/h100/wave37/calls/never-slower-moved-ll100.txt
args=()
for c in "${cases[@]}"; do args+=(--case "$c"); done
timeout --signal=INT 200 s94/rope-kv-bench bench --config configs/never-slower.json "${args[@]}" \
  --json "$OUT/ns-moved/ns-moved.json" >"$OUT/ns-moved/ns.txt" 2>&1
echo "ns-moved: exit $? ($SECONDS s)"
python3 scripts/check_never_slower.py "$OUT/ns-moved/ns-moved.json" >"$OUT/ns-moved/check.txt" 2>&1
echo "check: exit $?"; tail -3 "$OUT/ns-moved/check.txt"
tar -C "$OUT" -czf "$OUT/ns-moved.tar.gz" ns-moved && rm -rf "${OUT:?}/ns-moved"
[[ $card == *H200* ]] || { echo "call-s50-2 done on $card ($SECONDS s)"; exit 0; }
GOALS_TARBALL=dist/w69.tar.xz GOALS_DIR=s94 bash results/h200/wave24/calls/goals.sh
if ((SECONDS <= 390)); then
  ADOPTED_STEPS=info AB_ROUNDS=1 AB_MIN_GAIN=3 AB_PREFER="exp-whl exp-twg exp-tw63" \
    AB_CASES=results/h200/wave35/calls/rounds-62-64-cases.txt \
    timeout --signal=INT $((585 - SECONDS)) bash scripts/ab_call.sh dist/w67.tar.xz s92 ab
  echo "rounds 62-64: adopted $(tar -xzf "$OUT/ab.tar.gz" -O ab/adopted.txt 2>/dev/null || echo unknown)"
else
  echo "rounds 62-64: skipped, $SECONDS s gone"
fi
echo "call-s50-2 done ($SECONDS s)"
