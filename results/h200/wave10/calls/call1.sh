#!/usr/bin/env bash
# Session 11, call 1: confirm rwide2 (5 passes exp/base/exp at mla:16 neox rot=32 N=2048),
# validate the build the confirmation picks (ralignwide if rwide2 holds, else ralign2),
# then the onekv A/B (base, distinct, base again).
set -u
D=dist-c1
chmod +x $D/rope-kv-bench $D/*/rope-kv-bench $D/v/*/rope-kv-bench
R=$OUT/c1; mkdir -p $R
n=0
for b in $D/v/rwide2 $D $D/v/rwide2; do
  n=$((n+1))
  $b/rope-kv-bench bench --heads mla:16 --style neox --rot-dim 32 --tokens 2048 --mode cold \
    --passes 5 --json $R/confirm-$n.json > $R/confirm-$n.txt 2>&1
done
python3 - "$R" > $R/confirm-verdict.txt <<'PY'
import json, sys
r = sys.argv[1]
def med(i):
    d = json.load(open(f"{r}/confirm-{i}.json"))
    (c,) = [c for c in d["cases"] if "mla:16" in c["id"]]
    return {v["variant"]: v["median_us"] for v in c["variants"]}
e1, b, e2 = med(1), med(2), med(3)
ch = [100 * (e["fused"] / b["fused"] - 1) for e in (e1, e2)]
slower = all(x > 2.0 for x in ch)
print(f"base fused {b['fused']:.3f} us, exp {e1['fused']:.3f} / {e2['fused']:.3f} us: "
      f"{ch[0]:+.2f} % / {ch[1]:+.2f} %; pair {b['pair']:.3f} vs {e1['pair']:.3f} / {e2['pair']:.3f}")
print("VERDICT", "slower" if slower else "holds")
PY
cat $R/confirm-verdict.txt
if grep -q "VERDICT holds" $R/confirm-verdict.txt; then V=$D/v/ralignwide; else V=$D/v/ralign2; fi
echo "validating $V" | tee $R/validated-build.txt
BIN=$V OUT=$R/val bash scripts/device_run.sh matrix sanitize
BIN=$D OUT=$R/ab AB_CONFIGS=onekv bash scripts/device_run.sh ab
