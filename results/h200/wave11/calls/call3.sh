#!/usr/bin/env bash
# Session 12, call 3: round 1 A/B (results/NOTES.md, "Session 12 round 1"): base 936385d, gjflat,
# gjflatp, base again on the stride, rotary, prefill, decode and gptj configs, decided here by
# device_run.sh's rule (ab-decisions.txt). The first experiment both rules adopt (gjflat before
# gjflatp) is validated at once: full matrix and compute-sanitizer.
set -u
tar -xJf dist/s12c.tar.xz
D=dist-s12c R=$OUT/c3
mkdir -p $R
BIN=$D OUT=$R/ab AB_CONFIGS="stride rotary prefill decode gptj" bash scripts/device_run.sh ab
pick=""
while read -r name _ fused _ pair; do
  [[ -z $pick && $fused == 0 && $pair == 0 ]] && pick=$name
done <$R/ab/ab-decisions.txt
echo "${pick:-none}" | tee $R/adopted.txt
[[ -z $pick ]] || BIN=$D/$pick OUT=$R/val bash scripts/device_run.sh matrix sanitize
tar -C $OUT -czf $OUT/call3.tar.gz c3 && rm -rf $R
