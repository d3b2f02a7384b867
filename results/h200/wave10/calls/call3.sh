#!/usr/bin/env bash
# Session 11, call 3: round 3 A/B (base 2fb1cfc-equivalent 46ebf60, cstabcap, base again), decided
# here by ab_compare.py (the rule written in results/NOTES.md before this run); an adopted build
# is validated (matrix + sanitizer) at once; then the first never-slower shards of the binary
# that HEAD will be (cstabcap if adopted, else the base).
set -u
D=dist-c3
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench
R=$OUT/c3; mkdir -p $R
BIN=$D OUT=$R/ab AB_CONFIGS="stride rotary prefill decode" bash scripts/device_run.sh ab
t=$(mktemp -d); tar -xzf $R/ab/ab.tar.gz -C $t
j() { local n=$t/ab/$1 s=${2:-}; echo "$n-stride$s.json,$n-rotary$s.json,$n-prefill$s.json,$n-decode$s.json"; }
python3 scripts/ab_compare.py --base "$(j base)" --base "$(j base -again)" --exp "$(j exp-cstabcap)" \
  --subset results/h200/experiments/patches/cs-table-template.subset.txt --min-gain 3 > $R/decision-cstabcap.txt
f=$?
python3 scripts/ab_compare.py --base "$(j base)" --base "$(j base -again)" --exp "$(j exp-cstabcap)" \
  --variant pair --min-gain 0 > $R/decision-cstabcap-pair.txt
p=$?
echo "fused rule exit $f, pair rule exit $p" | tee $R/decision.txt
tail -n 3 $R/decision-cstabcap.txt $R/decision-cstabcap-pair.txt
if [[ $f == 0 && $p == 0 ]]; then
  NSBIN=$D/exp-cstabcap; shards="1 2 3"
  BIN=$NSBIN OUT=$R/val bash scripts/device_run.sh matrix sanitize
else
  NSBIN=$D; shards="1 2 3 4"
fi
echo "$NSBIN" | tee $R/ns-bin.txt
for k in $shards; do BIN=$NSBIN NS_SHARD=$k NS_SHARDS=8 OUT=$R/ns bash scripts/device_run.sh never-slower; done
