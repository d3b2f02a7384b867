#!/usr/bin/env python3
"""scripts/ab_table.py on an A/B folder made of a committed H200 report split into two configs:
the base twice, and experiments whose fused medians are scaled by fresh random factors. Each
experiment's column must show its factor on every case and in its mean, in natural name order;
a folder without a base report is refused in one line."""
import json
import os
import random
import re
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "ab_table.py")
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")
rng = random.Random()
ab = tempfile.mkdtemp()

with open(REPORT) as f:
    whole = json.load(f)
cut = rng.randrange(1, len(whole["cases"]))
parts = {"stride": whole["cases"][:cut], "rotary": whole["cases"][cut:]}


def write(name, factor):
    for cfg, cases in parts.items():
        r = json.loads(json.dumps(dict(whole, cases=cases)))
        for case in r["cases"]:
            for v in case["variants"]:
                if v["variant"] == "fused":
                    v["median_us"] *= factor
        with open(os.path.join(ab, f"{name}-{cfg}.json"), "w") as f:
            json.dump(r, f)


write("base", 1.0)
drift = rng.uniform(1.0, 1.02)
write("base-again-tmp", drift)  # renamed below to base-CFG-again.json
for cfg in parts:
    os.rename(os.path.join(ab, f"base-again-tmp-{cfg}.json"),
              os.path.join(ab, f"base-{cfg}-again.json"))
factors = {"exp-cap12": rng.uniform(0.9, 0.99), "exp-cap6": rng.uniform(1.01, 1.1)}
for name, factor in factors.items():
    write(name, factor)

code, out, err = run_script(SCRIPT, ab)
check(code == 0, f"exit {code}: {err}")
lines = out.splitlines()
check(lines[0] == "| case | mode | base us | cap6 | cap12 |", f"natural order: {lines[0]}")
rows = lines[2:-1]
check(len(rows) == len(whole["cases"]), f"{len(rows)} rows for {len(whole['cases'])} cases")
base_mean = drift ** 0.5  # the base is the geometric mean of its two runs
want = {n: f"{100 * (f / base_mean - 1):+.1f}" for n, f in factors.items()}
for row in rows:
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.strip("|"))]  # ids escape theirs
    check(cells[3] == want["exp-cap6"] and cells[4] == want["exp-cap12"],
          f"each column shows its factor: {row} (want {want})")
mean = [c.strip() for c in lines[-1].strip("|").split("|")]
check(mean[0] == "geometric mean" and
      mean[3] == f"{100 * (factors['exp-cap6'] / base_mean - 1):+.2f}", f"mean row: {lines[-1]}")

empty = tempfile.mkdtemp()
code, out, err = run_script(SCRIPT, empty)
check(code == 2 and "no base-CFG.json" in err and len(err.strip().splitlines()) == 1,
      f"no base: {code} {err}")
print("ab_table: all checks passed")
