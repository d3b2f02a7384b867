#!/usr/bin/env python3
"""scripts/placement_table.py on a committed ten-pass H200 report given buffer addresses per
pass (as bench --samples writes them): the per-pass lines, the slot a/b summary that shows the
pair's fp8 slow slot in that run, and the refusals (no addresses, not a report, not JSON)."""
import gzip
import json
import os
import random
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "placement_table.py")
REPORT = os.path.join(SOURCE, "results", "h200", "wave5", "seed-table-fresh2.json.gz")
CASE = "bf16|fp8_e4m3|32x32x128|neox|nhd|N=1"
tmp = tempfile.mkdtemp()


def run(*args):
    return run_script(SCRIPT, *args)


with gzip.open(REPORT, "rt") as f:  # committed gzipped: a device call carries the whole tree
    report = json.load(f)
rng = random.Random()
names = ["qkv_a", "qkv_b", "k_cache_a", "k_cache_b", "v_cache_a", "v_cache_b", "positions"]
for case in report["cases"]:
    passes = len(case["variants"][0]["passes"])
    case["buffer_addresses"] = [
        {n: hex(0x7F0000000000 + rng.randrange(1 << 30) * 0x200000) for n in names}
        for _ in range(passes)]
with_addresses = os.path.join(tmp, "with-addresses.json")
with open(with_addresses, "w") as f:
    json.dump(report, f)

code, out, err = run(with_addresses, "--filter", CASE)
check(code == 0, f"exit {code}: {err}")
lines = out.split("\n\n")[0].splitlines()  # the first case's block (N=128 matches the filter too)
check(lines[0].startswith(CASE + " "), f"case heading: {lines[:2]}")
case = next(c for c in report["cases"] if c["id"] == CASE)
pair = next(v for v in case["variants"] if v["variant"] == "pair")
per_pass = [line for line in lines if line.strip()[:2].strip().isdigit()]
check(len(per_pass) == len(pair["passes"]), f"one line per pass: {len(per_pass)}")
p = rng.randrange(len(pair["passes"]))
slot = pair["output_slots"][p]
check(case["buffer_addresses"][p]["qkv_" + slot] in per_pass[p], f"pass {p + 1} shows its qkv address")
check(f"{pair['passes'][p]['median_us']:.2f}" in per_pass[p], f"pass {p + 1} shows the pair median")
summary = next(line for line in lines if line.strip().startswith("pair: slot a"))
ratio = float(summary.rsplit("a/b ", 1)[1])
# In this run the pair wrote its slow slot (a) in every odd pass: 5.5-5.9 us against 4.95.
check(ratio > 1.08, f"the pair's slow slot shows: {summary}")

no_addresses = os.path.join(tmp, "plain.json")
for c in report["cases"]:
    c.pop("buffer_addresses")
with open(no_addresses, "w") as f:
    json.dump(report, f)
code, out, err = run(no_addresses)
check(code == 2 and "no buffer addresses" in err and len(err.strip().splitlines()) == 1, f"plain: {err}")
junk = os.path.join(tmp, "junk.json")
with open(junk, "w") as f:
    f.write("[1,")
code, out, err = run(junk)
check(code == 2 and "not JSON" in err, f"junk: {err}")
with open(junk, "w") as f:
    json.dump({"tool": "other"}, f)
code, out, err = run(junk)
check(code == 2 and "not a rope-kv-bench report" in err, f"foreign: {err}")
print("placement_table: all checks passed")
