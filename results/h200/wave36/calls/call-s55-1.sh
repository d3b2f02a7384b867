#!/usr/bin/env bash
# Session 55: round 66's landing checked on a device, after call-s53-2.sh's A/B on an H200 left
# round 64 rejected and round 66's own verdict (results/NOTES.md, "Session 55": ab_compare.py
# --only over exp-twg's reports) adopted it. Correctness is any card's question, so this call
# runs wherever it lands. Carry ["dist/w75.tar.xz"] (untracked, 3.6 MB): s100/exp-land66, the
# Release build (-DRKV_WERROR=ON -DRKV_BUILD_TESTS=ON) of 9490ab9 with
# results/h200/experiments/patches/token-warp-packed-gptj-from-two-waves-landing.patch applied, in
# a worktree at /tmp/r66, stripped:
#   strip -o dist/s100/exp-land66/rope-kv-bench /tmp/r66/build/rope-kv-bench
#   strip -o dist/s100/exp-land66/rkv_tests /tmp/r66/build/rkv_tests
#   tar -C dist -cf - s100 | xz -T2 -9 > dist/w75.tar.xz
# Steps, while S55_END (default 400 s) leaves room:
# 1. every GPU test of the landing's test binary, its new packed gpt-j validation cases among them
#    ($OUT/land66-gpu-tests.tar.gz);
# 2. the full validation matrix and the sanitizer set (device_run.sh info matrix sanitize, about
#    90 s on an H200; $OUT/land66.tar.gz);
# 3. on an H200 only, the 48 mla:16 never-slower cases recounted against session 46's survey
#    (into the same land66 folder).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
tar -xJf dist/w75.tar.xz || { echo "call-s55-1: cannot unpack dist/w75.tar.xz"; exit 4; }
bin=$(pwd)/s100/exp-land66
chmod +x "$bin/rope-kv-bench" "$bin/rkv_tests" || { echo "call-s55-1: no build in $bin"; exit 4; }
end=${S55_END:-400}
OUT=$OUT timeout $((end - SECONDS)) bash scripts/device_gpu_tests.sh "$bin/rkv_tests" /tmp/r66 \
  land66-gpu-tests
echo "land66 GPU tests: exit $? ($SECONDS s)"
if ((SECONDS <= end - 120)); then
  BIN=$bin OUT=$OUT/land66 timeout $((end - SECONDS)) bash scripts/device_run.sh info matrix sanitize
  echo "land66 matrix/sanitize: $(tr '\n' ';' <"$OUT/land66/steps.txt") ($SECONDS s)"
else
  echo "land66 matrix/sanitize: skipped, $SECONDS s gone"
fi
if [[ $card == *H200* ]] && ((SECONDS <= end - 100)); then
  timeout $((end - SECONDS - 10)) "$bin/rope-kv-bench" bench --config configs/never-slower.json \
    --heads mla:16 --json "$OUT/land66/ns-mla16.json" >"$OUT/land66/ns-mla16.txt" 2>&1
  echo "land66 ns-mla16: exit $? ($SECONDS s)"
  python3 scripts/check_never_slower.py results/h200/wave34/never-slower/never-slower.json.xz \
    --newer "$OUT/land66/ns-mla16.json" >"$OUT/land66/recount.txt" 2>&1
  echo "land66 recount: exit $?"
  tail -3 "$OUT/land66/recount.txt"
fi
[[ -d $OUT/land66 ]] && tar -C "$OUT" -czf "$OUT/land66.tar.gz" land66 && rm -rf "${OUT:?}/land66"
echo "call-s55-1 done on $card ($SECONDS s)"
