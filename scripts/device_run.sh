#!/usr/bin/env bash
# One call on the GPU box: run the named steps against prebuilt binaries, keep going when a step
# fails, and leave few files under $OUT (only 8 files come back from that machine, 2 folders deep).
# Usage: OUT=dir scripts/device_run.sh STEP...   (BIN=dist by default: rope-kv-bench,
#        rope-kv-gbench, rkv_tests, libbenchmark.so.1debian, built here and carried)
# Steps, and the file each adds under $OUT (every step also appends its output to log.txt):
#   info      nvidia-smi.csv (GPU, driver, clocks, power)     tests     gtest.json (rkv_tests)
#   smoke     (log only) validate configs/ci-smoke.json        seed      seed-table-$SEED_TAG.json
#   seed2     seed-table-run2.json                             matrix    validate-full-matrix.json
#             (SEED_TAG: default run1; one seed step per device call for runs on fresh machines;
#             SEED_SAMPLES=1 adds --samples)
#   sanitize  sanitizer.log (every tool's log, then summary)   ncu       ncu-summary.txt (fused,
#             N=2048 and N=1, bf16|auto|32x8x128|neox|nhd; or NCU_CASES, ids separated by ';',
#             and NCU_VARIANTS, e.g. "fused rope cache_write")   gbench    gbench.json (ci-smoke)
#   decode    decode.json                                      prefill   prefill.json
#   ab        ab.tar.gz: $BIN and every $BIN/exp-*/ build on configs/kernel-ab-*.json (AB_CONFIGS:
#             which, default "prefill decode"; base runs again last unless AB_BASE_AGAIN=0),
#             with the rule's decision files (judged on exp-NAME/subset.txt, or with
#             AB_SUBSET=moved on the cases whose launch moved); ab-decisions.txt: "NAME fused
#             EXIT pair EXIT". AB_CASES=FILE (one case id a line) runs exactly those cases
#             instead, with never-slower.json's timing, as one config named "cases". AB_ROUNDS=2
#             runs base, experiments, base, experiments (no third base run) and judges each
#             experiment on both of its runs (NAME-CFG.json and NAME-CFG-r2.json)
#             AB_JUDGE=pair judges a change to the pair alone: the pair on the subset, the
#             fused kernel left where it was (ab_decide below)
#   adopted   after `ab` in the same call: adopted.txt (the first experiment that both rules
#             adopt, or "none": those AB_PREFER names, in its order, then the rest by name), and
#             that build's validate-full-matrix.json and sanitizer.log (ADOPTED_STEPS: the steps
#             run on it, default "matrix sanitize"). A build whose verdict is "confirm first"
#             re-runs those cases, five passes exp / base / exp, and counts as adopted when
#             scripts/ab_confirm.py says they hold: confirm-NAME.txt (AB_CONFIRM=0 skips it)
#   ncu-table ncu-vs-tool.md, ncu-vs-tool.json (scripts/ncu_vs_tool.sh: fused cold and warm, tool
#             vs ncu gpu__time_duration, bf16 GQA and MHA, N=1..65536), ncu-raw.tar.gz
#   dumps     dumps-read.txt (scripts/read_dump.py over validate --dump-all of one MLA, one packed
#             and one fp8 per-head case), dumps.tar.gz (the dump folders)
#   noise     noise.json (bench configs/decode.json --samples), noise.txt (timing_summary.py:
#             fused vs pair noise per mode, floor checks)
#   floor     floor.json (a decode subset in wall and graph mode), floor.txt (timing_summary.py:
#             each floor measurement, how many variant medians lie below the floor)
#   edge      edge.json (validate configs/edge.json: misaligned bases, every access width, a
#             cache past 4 GiB, 1M tokens, NaN/Inf/subnormal inputs; < 90 s)
#   sanitize-edge  sanitizer-edge.log (summary first, then memcheck, initcheck and synccheck
#             over configs/edge-sanitizer.json, 150 s per tool at most)
#   pdl       pdl.json (configs/pdl.json: producer and producer_pdl modes), pdl-table.md
#   pdl-weights  pdl-weights-mha.json, pdl-weights-gqa.json and their -table.md (configs/
#             pdl-weights-*.json: the producer first streams the shape's QKV weights, 96 / 48 MiB)
#   goals     floor-line.json (configs/floor-line.json: issue 12's 80 floor cells, cold, about
#             4 min), goals.txt (scripts/check_kernel_goals.py: the floor goal on it, the decode
#             goal on this call's seed table and the PDL goal on its pdl.json, where earlier steps
#             wrote them; a goal not met is a result, an unreadable report fails the step)
#   cold-floor  cold-floor.txt (scripts/cold_floor_probe.sh: event pair, net cold floor, ncu's
#             empty kernel), cold-floor.tar.gz
#   fp8-probe  fp8-probe.txt (scripts/placement_table.py: per pass, each variant's time and the
#             buffers it wrote, for the fp8 decode cases alone with --samples, and for any
#             seed-table report already in $OUT: run it after `seed` with SEED_SAMPLES=1),
#             fp8-probe.tar.gz (the reports; with OLD_BIN=path, that build's run too)
#   never-slower  never-slower-shard-K-of-N.json and .log (NS_SHARD=K, NS_SHARDS=N; 1 of 8 by
#             default: about 60-80 s a shard on an H200)
# Always: steps.txt (step, exit code, wall seconds, one line per step as it ends) and log.txt.
# env: STEP_TIMEOUT (s, default 290) bounds every step but sanitize and sanitize-edge;
#      bench/validate get SIGINT, which they answer by writing what they measured, marked
#      incomplete. SANITIZER_TOOLS and SANITIZER_TIMEOUT (here 120 s per tool; 150 s in
#      sanitize-edge, whose tools are fixed) pass through to scripts/sanitize.sh; GTEST_FILTER
#      (read by gtest itself, e.g. '*Gpu*') narrows the tests step.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 4
if (($# == 0)) || [[ -z ${OUT:-} ]]; then
  sed -n '2,/^set /s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
bin=${BIN:-dist}
limit=${STEP_TIMEOUT:-290}
log=$OUT/log.txt
mkdir -p "$OUT"
: >"$OUT/steps.txt"
chmod +x "$bin"/rope-kv-bench "$bin"/rope-kv-gbench "$bin"/rkv_tests 2>/dev/null
scratch=$(mktemp -d)  # reports and per-tool logs too many to bring back; summaries go to $OUT

bench() { timeout -s INT -k 30 "$limit" "$bin/rope-kv-bench" "$@"; }

# rkv_tests has the build machine's paths compiled in: RKV_SOURCE_DIR (it reads <src>/configs) and
# RKV_CLI_PATH (<build>/rope-kv-bench). Where that source folder does not exist here, stand in a
# folder of links to this checkout, with the build folder pointing at $bin, so those tests run.
shim_source_dir() {
  local src cli rel
  # gtest records each test file's path: <src>/tests/NAME_test.cpp.
  src=$(grep -aoE '/[[:alnum:]_./-]+/tests/[[:alnum:]_]+_test\.cu?p?p?' "$bin/rkv_tests" | head -n1)
  src=${src%/tests/*}
  # A build folder inside the source tree records relative test paths: use RKV_SOURCE_DIR's
  # configs folder instead.
  [[ -n $src ]] || src=$(grep -aoE '/[[:alnum:]_./-]+/configs' "$bin/rkv_tests" | head -n1)
  src=${src%/configs}
  cli=$(grep -aoE '/[[:alnum:]_./-]+/rope-kv-bench' "$bin/rkv_tests" | grep -m1 "^$src/")
  # Same path here (the checkout sits where it was built) but no build folder, or one that an
  # earlier call on a warm machine left with only some of the tools: link each missing one of the
  # CLI and the Google Benchmark binary in (the error table runs both).
  if [[ -n $src && -e $src && -n $cli ]]; then
    local tool
    mkdir -p "$(dirname "$cli")" || return 0
    for tool in rope-kv-bench rope-kv-gbench; do
      [[ -e $(dirname "$cli")/$tool || ! -e $bin/$tool ]] && continue
      ln -sf "$(cd "$bin" && pwd)/$tool" "$(dirname "$cli")/$tool" &&
        echo "(linked $(dirname "$cli")/$tool -> $bin/$tool)"
    done
    return 0
  fi
  [[ -n $src && ! -e $src ]] || return 0
  mkdir -p "$scratch/src" "$(dirname "$src")"
  for f in "$PWD"/*; do ln -s "$f" "$scratch/src/"; done
  rel=$(dirname "${cli#"$src"/}")
  if [[ -n $cli && $rel != */* && $rel != . ]]; then
    rm -f "$scratch/src/$rel"
    ln -s "$(cd "$bin" && pwd)" "$scratch/src/$rel"
  fi
  ln -s "$scratch/src" "$src" && echo "(linked $src -> this checkout${cli:+, $rel/ -> $bin})"
}

step_info() {
  local q=name,pci.bus_id,driver_version,memory.total,clocks.sm,clocks.max.sm
  q+=,clocks.applications.graphics,clocks.mem,temperature.gpu,power.draw,power.limit
  q+=,persistence_mode,compute_mode
  uname -r
  nvcc --version 2>/dev/null | tail -n1
  nvidia-smi --query-gpu="$q" --format=csv >"$scratch/smi.csv" || return 1
  cp "$scratch/smi.csv" "$OUT/nvidia-smi.csv"
  cat "$OUT/nvidia-smi.csv"
}
step_tests() {
  shim_source_dir
  # --gtest_brief: print failures only; every result is in gtest.json.
  timeout -k 10 "$limit" "$bin/rkv_tests" --gtest_brief=1 --gtest_output="json:$OUT/gtest.json"
}
step_smoke() { bench validate --config configs/ci-smoke.json; }
step_seed() {
  local samples=()
  [[ ${SEED_SAMPLES:-0} == 1 ]] && samples=(--samples)
  bench bench --config configs/seed-table.json "${samples[@]}" \
    --json "$OUT/seed-table-${SEED_TAG:-run1}.json"
}
step_seed2() { bench bench --config configs/seed-table.json --json "$OUT/seed-table-run2.json"; }
step_matrix() {
  bench validate --config configs/full-matrix.json --json "$OUT/validate-full-matrix.json"
}
step_sanitize() {
  # Four tools must fit in one call with other steps: 120 s each unless told otherwise.
  SANITIZER_TIMEOUT=${SANITIZER_TIMEOUT:-120} bash scripts/sanitize.sh "$scratch/sanitize" "$bin/rope-kv-bench"
  local rc=$?
  if [[ -f $scratch/sanitize/summary.txt ]]; then  # absent when the tools could not start
    for f in "$scratch"/sanitize/*.log; do
      echo "=== $(basename "$f")"
      cat "$f"
    done >"$OUT/sanitizer.log"
    { echo "=== summary"; cat "$scratch/sanitize/summary.txt"; } >>"$OUT/sanitizer.log"
  fi
  return $rc
}
# Issue 14 item 2: every device path (misaligned bases and narrow widths, a cache past 4 GiB,
# 1M tokens, NaN/Inf/subnormal inputs). One validate call; under 90 s on the H200.
step_edge() { bench validate --config configs/edge.json --json "$OUT/edge.json"; }
step_sanitize-edge() {
  # memcheck, initcheck and synccheck over the small edge cases, 150 s each at most; one log.
  SANITIZER_TOOLS="memcheck initcheck synccheck" SANITIZER_CONFIG=configs/edge-sanitizer.json \
    SANITIZER_TIMEOUT=${SANITIZER_TIMEOUT:-150} \
    bash scripts/sanitize.sh "$scratch/sanitize-edge" "$bin/rope-kv-bench"
  local rc=$?
  if [[ -f $scratch/sanitize-edge/summary.txt ]]; then  # absent when the tools could not start
    { echo "=== summary"; cat "$scratch/sanitize-edge/summary.txt"; } >"$OUT/sanitizer-edge.log"
    for f in "$scratch"/sanitize-edge/*.log; do
      echo "=== $(basename "$f")"
      cat "$f"
    done >>"$OUT/sanitizer-edge.log"
  fi
  return $rc
}
step_ncu() {
  local rc=0 c v cases=()
  IFS=';' read -r -a cases <<<"${NCU_CASES:-bf16|auto|32x8x128|neox|nhd|N=2048;bf16|auto|32x8x128|neox|nhd|N=1}"
  for c in "${cases[@]}"; do
    for v in ${NCU_VARIANTS:-fused}; do
      timeout -k 10 "$limit" bash scripts/ncu.sh "$c" "$v" 3 "$scratch/ncu" "$bin/rope-kv-bench" || rc=1
    done
  done
  if compgen -G "$scratch/ncu/*.txt" >/dev/null; then
    cat "$scratch"/ncu/*.txt >"$OUT/ncu-summary.txt"
  fi
  return $rc
}
step_gbench() {
  timeout -k 10 "$limit" "$bin/rope-kv-gbench" --config configs/ci-smoke.json --benchmark_out="$OUT/gbench.json" \
    --benchmark_out_format=json
}
# A/B of kernel builds: $bin/rope-kv-bench (first and last, to see drift) and every
# $bin/exp-NAME/rope-kv-bench, each on configs/kernel-ab-{prefill,decode}.json; the reports go
# into ab.tar.gz as ab/NAME-{prefill,decode}[-again].json. AB_CONFIGS="prefill" runs one of them.
step_ab() {
  local rc=0 d name cfg suffix
  if [[ -n ${AB_CASES:-} && ! -s $AB_CASES ]]; then
    echo "device_run: AB_CASES '$AB_CASES' is not a file of case ids"
    return 4
  fi
  local rounds=${AB_ROUNDS:-1}
  if [[ $rounds != 1 && $rounds != 2 ]]; then
    echo "device_run: AB_ROUNDS '$rounds' is not 1 or 2"
    return 4
  fi
  mkdir -p "$scratch/ab"
  # One round: base, experiments, base again. Two: base, experiments, base, experiments, so that
  # drift between the runs falls on base and experiments alike (the second base run is the
  # base-again one, and each experiment is judged on both of its runs).
  local order=("$bin" "$bin"/exp-*/)
  if ((rounds == 2)); then
    order+=("$bin" "$bin"/exp-*/)
  elif [[ ${AB_BASE_AGAIN:-1} != 0 ]]; then
    order+=("$bin")
  fi
  for d in "${order[@]}"; do
    [[ -x $d/rope-kv-bench ]] || continue
    name=$(basename "$d")
    [[ $d == "$bin" ]] && name=base
    for cfg in $(ab_configs); do
      # A build's second run is NAME-CFG-r2 (the base's base-CFG-again), not an overwrite.
      suffix=""
      if [[ -e $scratch/ab/$name-$cfg.json ]]; then
        [[ $name == base ]] && suffix=-again || suffix=-r2
      fi
      chmod +x "$d/rope-kv-bench"
      ab_run_args "$cfg"
      timeout -s INT -k 30 "$limit" "$d/rope-kv-bench" bench "${ab_args[@]}" \
        --json "$scratch/ab/$name-$cfg$suffix.json" >"$scratch/ab/$name-$cfg$suffix.txt" 2>&1 || rc=1
      tail -n 25 "$scratch/ab/$name-$cfg$suffix.txt"
    done
  done
  ab_decide >"$OUT/ab-decisions.txt"
  cat "$OUT/ab-decisions.txt"
  tar -C "$scratch" -czf "$OUT/ab.tar.gz" ab
  return $rc
}
# The A/B's configs: AB_CONFIGS's kernel-ab configs, or "cases" where AB_CASES names a file.
ab_configs() {
  if [[ -n ${AB_CASES:-} ]]; then echo cases; else echo "${AB_CONFIGS:-prefill decode}"; fi
}
# The bench arguments of one A/B config, in the array ab_args.
ab_run_args() {
  if [[ $1 == cases ]]; then
    ab_args=(--config configs/never-slower.json)
    local id
    while read -r id; do [[ -z $id ]] || ab_args+=(--case "$id"); done <"$AB_CASES"
  else
    ab_args=(--config "configs/kernel-ab-$1.json")
  fi
}
# The A/B rule (scripts/ab_compare.py) on each experiment of step_ab, in the same call, so that a
# script can act on the verdict (validate an adopted build at once). Every config's report of
# one build is one run; the judged subset is $bin/exp-NAME/subset.txt when there is one
# (scripts/build_kernel_experiments.sh copies PATCH's .subset.txt there), else with AB_SUBSET=moved
# the cases whose fused launch the build moved (routing changes); AB_MIN_GAIN (default 3).
# Writes ab/decision-NAME.txt (fused) and ab/decision-NAME-pair.txt (the pair: no case more than
# 2 % slower, no gain asked), and prints one line an experiment: NAME fused EXIT pair EXIT, the
# exits of ab_compare.py (0 adopt, 1 reject, 3 confirm first, 2 unreadable). AB_JUDGE=pair
# swaps the roles for a change to the pair alone: the fused kernel no case more than 2 % slower
# and no gain asked, the pair judged on the subset with AB_MIN_GAIN (default 1 there).
ab_decide() {
  local d name cfg base again exp subset fused pair
  for d in "$bin"/exp-*/; do
    [[ -x $d/rope-kv-bench ]] || continue
    name=$(basename "$d")
    base="" again="" exp=""
    for cfg in $(ab_configs); do
      base+=${base:+,}$scratch/ab/base-$cfg.json
      again+=${again:+,}$scratch/ab/base-$cfg-again.json
      exp+=${exp:+,}$scratch/ab/$name-$cfg.json
      [[ ${AB_ROUNDS:-1} == 2 ]] && exp+=,$scratch/ab/$name-$cfg-r2.json
    done
    local bases=(--base "$base")
    [[ ${AB_BASE_AGAIN:-1} == 0 && ${AB_ROUNDS:-1} == 1 ]] || bases+=(--base "$again")
    subset=()
    if [[ -f $d/subset.txt ]]; then
      subset=(--subset "$d/subset.txt")
    elif [[ ${AB_SUBSET:-} == moved ]]; then
      subset=(--subset moved)  # the cases whose fused launch the build moved
    fi
    local fused_rule=("${subset[@]}" --min-gain "${AB_MIN_GAIN:-3}") pair_rule=(--no-gain-asked)
    if [[ ${AB_JUDGE:-fused} == pair ]]; then
      # A change to the pair alone (issue 12 item 5, a lever the fused kernel got): the fused
      # kernel must not move, and the pair must gain on the judged cases (default 1 %).
      fused_rule=(--no-gain-asked)
      pair_rule=("${subset[@]}" --min-gain "${AB_MIN_GAIN:-1}")
    fi
    python3 scripts/ab_compare.py "${bases[@]}" --exp "$exp" "${fused_rule[@]}" \
      >"$scratch/ab/decision-$name.txt" 2>&1
    fused=$?
    python3 scripts/ab_compare.py "${bases[@]}" --exp "$exp" --variant pair "${pair_rule[@]}" \
      >"$scratch/ab/decision-$name-pair.txt" 2>&1
    pair=$?
    echo "$name fused $fused pair $pair"
  done
}
# The confirmation the A/B rule asks for before adopting a "confirm first" build (ab_compare.py
# exit 3): the cases its decision files mark, each timing mode in one bench run with five passes,
# in the order exp / base / exp; scripts/ab_confirm.py judges them (slower only when both
# experiment runs are). The decision files come from ab.tar.gz, since `ab` may have run in an
# earlier invocation (scripts/ab_call.sh packs in between).
confirm_build() {
  local name=$1 dir=$scratch/confirm/$1 d mode id m n=0 reports
  local runs=() ids=()
  mkdir -p "$dir"
  tar -xzf "$OUT/ab.tar.gz" -C "$dir" "ab/decision-$name.txt" "ab/decision-$name-pair.txt" ||
    { echo "device_run: no decision files of $name in ab.tar.gz"; return 1; }
  python3 scripts/ab_confirm.py cases "$dir/ab/decision-$name.txt" "$dir/ab/decision-$name-pair.txt" \
    >"$dir/cases.txt" || return 1
  [[ -s $dir/cases.txt ]] || { echo "device_run: $name: nothing marked to confirm"; return 1; }
  for d in "$bin/$name" "$bin" "$bin/$name"; do
    n=$((n + 1))
    reports=""
    for mode in $(cut -f2 "$dir/cases.txt" | sort -u); do
      ids=()
      while IFS=$'\t' read -r id m _; do
        [[ $m == "$mode" ]] && ids+=(--case "$id")
      done < <(sort -u -t$'\t' -k1,2 "$dir/cases.txt")
      timeout -s INT -k 30 "$limit" "$d/rope-kv-bench" bench "${ids[@]}" --mode "$mode" --passes 5 \
        --json "$dir/run$n-$mode.json" >"$dir/run$n-$mode.txt" 2>&1 ||
        { echo "device_run: $name: confirmation run $n ($mode) failed"; return 1; }
      reports+=${reports:+,}$dir/run$n-$mode.json
    done
    runs+=("$reports")
  done
  python3 scripts/ab_confirm.py judge --cases "$dir/cases.txt" --base "${runs[1]}" \
    --exp "${runs[0]}" --exp "${runs[2]}" >"$OUT/confirm-$name.txt" 2>&1
  local verdict=$?
  cat "$OUT/confirm-$name.txt"
  return $verdict
}
# An adopted build is validated before its numbers are published (docs/methodology.md, A/B step
# 5); doing it in the call that decided saves a machine start.
step_adopted() {
  local name fused pair pick="" rc=0 s base=$bin
  [[ -f $OUT/ab-decisions.txt ]] ||
    { echo "device_run: 'adopted' needs the 'ab' step's ab-decisions.txt in \$OUT (run ab first)"; return 4; }
  # Preferred builds first (one that holds another's change and more, say), then ab's order.
  local adopted=() preferred
  while read -r name _ fused _ pair; do
    if [[ $fused == 0 && $pair == 0 ]]; then
      adopted+=("$name")
    elif [[ $fused =~ ^[03]$ && $pair =~ ^[03]$ && ${AB_CONFIRM:-1} != 0 ]]; then
      confirm_build "$name" </dev/null && adopted+=("$name")  # the loop reads stdin
    fi
  done <"$OUT/ab-decisions.txt"
  for preferred in ${AB_PREFER:-}; do
    for name in "${adopted[@]}"; do
      [[ -z $pick && $name == "$preferred" ]] && pick=$name
    done
  done
  [[ -n $pick || ${#adopted[@]} == 0 ]] || pick=${adopted[0]}
  echo "${pick:-none}" | tee "$OUT/adopted.txt"
  [[ -n $pick ]] || return 0
  bin=$base/$pick
  for s in ${ADOPTED_STEPS:-matrix sanitize}; do
    "step_$s" || rc=1
  done
  bin=$base
  return $rc
}
step_decode() { bench bench --config configs/decode.json --json "$OUT/decode.json"; }
step_ncu-table() {
  local rc=0
  timeout -k 10 "$limit" bash scripts/ncu_vs_tool.sh "$scratch/ncu-table" \
    "$bin/rope-kv-bench" || rc=1
  cp "$scratch"/ncu-table/ncu-vs-tool.{md,json} "$OUT/" 2>/dev/null || rc=1
  tar -C "$scratch" -czf "$OUT/ncu-raw.tar.gz" ncu-table
  return $rc
}
# The three dumps the issue asks for: MLA, a packed cache layout, fp8 with per-head scales.
step_dumps() {
  local rc=0
  bench validate --case 'bf16|fp8_e4m3|mla:16|gptj|nhd|N=16' \
    --case 'fp16|auto|32x8x128|neox|packed_hnd|N=16' \
    --case 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=16|scale=head' \
    --dump "$scratch/dumps" --dump-all --json "$scratch/dumps/validate.json" || rc=1
  python3 scripts/read_dump.py "$scratch/dumps" >"$OUT/dumps-read.txt" || rc=1
  cat "$OUT/dumps-read.txt"
  tar -C "$scratch" -czf "$OUT/dumps.tar.gz" dumps
  return $rc
}
step_noise() {
  bench bench --config configs/decode.json --samples --json "$OUT/noise.json" || return 1
  python3 scripts/timing_summary.py "$OUT/noise.json" | tee "$OUT/noise.txt"
}
step_floor() {
  bench bench --config configs/decode.json --heads 32x8x128,32x32x128 --mode wall,graph \
    --json "$OUT/floor.json" || return 1
  python3 scripts/timing_summary.py "$OUT/floor.json" | tee "$OUT/floor.txt"
}
step_prefill() { bench bench --config configs/prefill.json --json "$OUT/prefill.json"; }
# What PDL saves: the producer modes, then the with/without table.
step_pdl() {
  bench bench --config configs/pdl.json --json "$OUT/pdl.json"
  local rc=$?
  python3 scripts/pdl_table.py "$OUT/pdl.json" | tee "$OUT/pdl-table.md" || rc=1
  return $rc
}
# The same with a producer as long as a decode-time QKV projection (timing.producer_read_mib).
step_pdl-weights() {
  local rc=0 w
  for w in mha gqa; do
    bench bench --config "configs/pdl-weights-$w.json" --json "$OUT/pdl-weights-$w.json" || rc=1
    python3 scripts/pdl_table.py "$OUT/pdl-weights-$w.json" | tee "$OUT/pdl-weights-$w-table.md" ||
      rc=1
  done
  return $rc
}
# Issue 12's goals, judged on this call's reports (docs/methodology.md, "The kernel's goals").
step_goals() {
  bench bench --config configs/floor-line.json --json "$OUT/floor-line.json"
  local rc=$? goal report seeds
  seeds=("$OUT"/seed-table-*.json)
  : >"$OUT/goals.txt"
  for goal in floor decode pdl; do
    case $goal in
      floor) report=$OUT/floor-line.json ;;
      decode) report=${seeds[0]} ;;
      pdl) report=$OUT/pdl.json ;;
    esac
    if [[ ! -f $report ]]; then
      echo "== $goal: no report in this call" >>"$OUT/goals.txt"
      continue
    fi
    echo "== $goal (${report##*/})" >>"$OUT/goals.txt"
    python3 scripts/check_kernel_goals.py "$goal" "$report" >>"$OUT/goals.txt" 2>&1
    (($? == 2)) && rc=1
  done
  cat "$OUT/goals.txt"
  return $rc
}
# The cold window's parts: the event pair, the net empty-kernel floor, ncu's empty kernel.
step_cold-floor() {
  timeout -k 10 "$limit" bash scripts/cold_floor_probe.sh "$scratch/cold-floor" \
    "$bin/rope-kv-bench" | tee "$OUT/cold-floor.txt"
  local rc=${PIPESTATUS[0]}
  tar -C "$scratch" -czf "$OUT/cold-floor.tar.gz" cold-floor
  return $rc
}
# Never-slower, one shard per step run: NS_SHARD=K NS_SHARDS=N (default 1 of 8).
step_fp8-probe() {
  local rc=0 d=$scratch/fp8-probe r b
  mkdir -p "$d"
  # The fp8 decode cases alone, long enough (six passes of 0.05 s per variant) that in-place
  # drift used to push their keys off the fp8 quotient's fast path; with OLD_BIN, that build too.
  for r in new old; do
    b=$bin/rope-kv-bench
    [[ $r == old ]] && { [[ -n ${OLD_BIN:-} ]] || continue; b=$OLD_BIN; chmod +x "$b"; }
    timeout -s INT -k 30 "$limit" "$b" bench --dtype bf16,fp16 --cache-dtype fp8_e4m3 \
      --heads 32x32x128,32x8x128 --tokens 1,128 --passes 6 --samples --json "$d/alone-$r.json" \
      >"$d/alone-$r.txt" 2>&1 || rc=1
  done
  for r in "$d"/alone-*.json "$OUT"/seed-table-*.json; do
    [[ -f $r ]] || continue
    echo "== $(basename "$r")"
    python3 scripts/placement_table.py "$r" --filter fp8_e4m3 || rc=1
  done >"$OUT/fp8-probe.txt"
  tar -C "$scratch" -czf "$OUT/fp8-probe.tar.gz" fp8-probe
  return $rc
}
step_never-slower() {
  STEP_TIMEOUT=$limit bash scripts/never_slower_device.sh "$OUT" "$bin" "${NS_SHARD:-1}" \
    "${NS_SHARDS:-8}"
}

for s in "$@"; do
  if ! declare -F "step_$s" >/dev/null; then
    echo "device_run: unknown step '$s' (info tests smoke seed seed2 matrix sanitize edge sanitize-edge ncu gbench decode prefill ab adopted ncu-table dumps noise floor pdl pdl-weights goals cold-floor fp8-probe never-slower)" | tee -a "$log"
    echo "$s 4 0" >>"$OUT/steps.txt"
    continue
  fi
  echo "=== $s ($(date -u +%H:%M:%S))" | tee -a "$log"
  t0=$(date +%s.%N)
  "step_$s" 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "=== $s: exit $rc, $secs s" | tee -a "$log"
  echo "$s $rc $secs" >>"$OUT/steps.txt"
done

echo
printf '%-13s %5s %8s\n' step exit wall_s
awk '{ printf "%-13s %5s %8s\n", $1, $2, $3 }' "$OUT/steps.txt"
rm -rf "$scratch"
! awk '$2 != 0 { bad = 1 } END { exit !bad }' "$OUT/steps.txt"
