#!/usr/bin/env bash
# Session 52: the second H200 call, for a landing that call-s51-2.sh's A/B adopted (rounds 62 and
# 64 are judged there on w67's builds, which predate rounds 63 and 65). Carry ["dist/w73.tar.xz"]:
# s98/exp-land62 and s98/exp-land64, HEAD dad4ff5 with each patch applied, from
#   scripts/build_kernel_experiments.sh --dist dist/s98 \
#     land62=results/h200/experiments/patches/wide-half-landing.patch \
#     land64=results/h200/experiments/patches/token-warp-packed-gptj.patch
#   tar -C dist -cf - s98 | xz -T2 -9 > dist/w73.tar.xz
# LANDS (default "land62 land64"): the builds to check. For each: the full validation matrix and
# the sanitizer set (device_run.sh matrix sanitize, about 90 s on an H200), then its mla:16
# never-slower cases (configs/never-slower.json --heads mla:16, 48 cases) recounted against
# session 46's survey, while time is left (S52_END, default 585 s). $OUT/LAND.tar.gz each.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
tar -xJf dist/w73.tar.xz || { echo "call-s52-2: cannot unpack dist/w73.tar.xz"; exit 4; }
end=${S52_END:-585}
for land in ${LANDS:-land62 land64}; do
  bin=$(pwd)/s98/exp-$land
  [[ -x $bin/rope-kv-bench ]] || chmod +x "$bin/rope-kv-bench" ||
    { echo "call-s52-2: no build $bin"; exit 4; }
  ((SECONDS <= end - 120)) || { echo "$land: skipped, $SECONDS s gone"; continue; }
  BIN=$bin OUT=$OUT/$land bash scripts/device_run.sh info matrix sanitize
  echo "$land matrix/sanitize: $(tr '\n' ';' <"$OUT/$land/steps.txt") ($SECONDS s)"
  if ((SECONDS <= end - 200)); then
    timeout $((end - SECONDS - 10)) "$bin/rope-kv-bench" bench --config configs/never-slower.json \
      --heads mla:16 --json "$OUT/$land/ns-mla16.json" >"$OUT/$land/ns-mla16.txt" 2>&1
    echo "$land ns-mla16: exit $? ($SECONDS s)"
    python3 scripts/check_never_slower.py results/h200/wave34/never-slower/never-slower.json.xz \
      --newer "$OUT/$land/ns-mla16.json" >"$OUT/$land/recount.txt" 2>&1
    echo "$land recount: exit $?"; tail -3 "$OUT/$land/recount.txt"
  fi
  tar -C "$OUT" -czf "$OUT/$land.tar.gz" "$land" && rm -rf "${OUT:?}/$land"
done
echo "call-s52-2 done ($SECONDS s)"
