#!/usr/bin/env python3
"""scripts/mla_ceiling.py on committed reports: the ceiling it prints recomputed here from fresh
random rates (so the sum is checked, not a stored number), non-MLA cases skipped, and each refused
input (a floor report not in place, a bench report given as the floor, a missing span pattern, an
unreadable file) one line on stderr with exit 2."""
import json
import lzma
import os
import random
import re
import sys
import tempfile

from script_checks import check, run_script, write_json

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "mla_ceiling.py")
DIR = os.path.join(SOURCE, "results", "h100", "wave38", "floor-c6628b2")
FLOOR = os.path.join(DIR, "floor-in-place.json")
BENCH = os.path.join(DIR, "mla-cold.json.xz")
tmp = tempfile.mkdtemp()


def write(name, doc):
    return write_json(tmp, name, doc)


with open(FLOOR) as f:
    floor = json.load(f)
with lzma.open(BENCH, "rt") as f:
    bench = json.load(f)

# Fresh rates: the span pattern and the contiguous ones, the fastest contiguous one used.
rng = random.Random()
span_gbps = rng.uniform(1000, 3000)
whole = [rng.uniform(2000, 4000) for p in floor["patterns"] if p["span_bytes"] == p["row_bytes"]]
it = iter(whole)
for p in floor["patterns"]:
    p["gbps"] = span_gbps if p["pattern"] == "128/384" else (
        next(it) if p["span_bytes"] == p["row_bytes"] else rng.uniform(100, 200))
copy = bench["device"]["copy_bandwidth_gbps"]
# A non-MLA case is skipped, not rated.
other = json.loads(json.dumps(bench["cases"][0]))
other["id"] = "bf16|auto|32x8x128|neox|nhd|N=65536"
other["spec"]["heads"] = "32x8x128"
bench["cases"].append(other)
code, out, err = run_script(SCRIPT, write("floor.json", floor), write("bench.json", bench))
check(code == 0, f"exit 0: {code} {err}")
lines = out.strip().splitlines()
check(len(lines) == len(bench["cases"]), f"one line a case: {out}")
check(lines[-1] == f"{other['id']}: skipped (not MLA with q rotated in place)", lines[-1])
for c, line in zip(bench["cases"][:-1], lines):
    s = c["spec"]
    q = 2 * s["tokens"] * int(s["heads"][4:]) * 64 * 2
    want = 100 * c["min_bytes"] / (q / span_gbps + (c["min_bytes"] - q) / max(whole)) / copy
    m = re.fullmatch(r"(\S+)\s+fused\s+([\d.]+) %\s+ceiling\s+([\d.]+) %\s+fused/ceiling\s+([\d.]+) %",
                     line)
    check(m and m.group(1) == c["id"], f"a case line: {line}")
    check(abs(float(m.group(3)) - want) < 0.051, f"{c['id']}: ceiling {m.group(3)}, want {want:.2f}")
    check(abs(float(m.group(2)) - c["fused_pct_of_bandwidth"]) < 0.051, f"fused: {line}")

# Refusals: one line on stderr naming the file, exit 2.
not_in_place = dict(floor, in_place=False)
no_span = dict(floor, patterns=[p for p in floor["patterns"] if p["pattern"] != "128/384"])
no_whole = dict(floor, patterns=[p for p in floor["patterns"] if p["span_bytes"] != p["row_bytes"]])
bad = os.path.join(tmp, "bad.json")
with open(bad, "w") as f:
    f.write("{not json")
for args, why in (((write("a.json", not_in_place), BENCH), "not an --in-place floor report"),
                  ((BENCH, BENCH), "not a rope-kv-bench floor report"),
                  ((write("b.json", no_span), BENCH), "no 128/384 pattern for bf16|auto|mla:16"),
                  ((write("c.json", no_whole), BENCH), "no contiguous pattern"),
                  ((bad, BENCH), "not JSON"),
                  ((FLOOR, FLOOR), "no cases array"),
                  ((os.path.join(tmp, "none.json"), BENCH), "No such file")):
    code, out, err = run_script(SCRIPT, *args)
    check(code == 2 and why in err and err.count("\n") == 1 and err.startswith("mla_ceiling: "),
          f"{why}: {code} {err!r}")
code, out, err = run_script(SCRIPT, FLOOR)
check(code == 2 and "usage" not in out and "FLOOR_REPORT BENCH_REPORT" in err, f"usage: {err}")
print("mla_ceiling_test: ok")
