#!/usr/bin/env python3
"""scripts/check_report_schema.py on bad arguments of its own: a report (gzipped) or a missing file
given where the schema goes, and a spoiled report among good ones. Each is one line and its
documented exit, never a traceback."""
import gzip
import json
import lzma
import os
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "check_report_schema.py")
SCHEMA = os.path.join(SOURCE, "docs", "report-schema.json")
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")
tmp = tempfile.mkdtemp()

with open(REPORT) as f:
    good = json.load(f)
packed = os.path.join(tmp, "report.json.gz")
with open(packed, "wb") as f:
    f.write(gzip.compress(json.dumps(good).encode()))

for schema in (packed, os.path.join(tmp, "absent.json")):
    code, out, err = run_script(SCRIPT, schema, REPORT)
    check(code == 2, f"{schema} as the schema: exit {code}")
    check("Traceback" not in err and len(err.strip().splitlines()) == 1, f"one line: {err!r}")
    check("is not a readable JSON Schema" in err, err)

code, out, err = run_script(SCRIPT, SCHEMA, packed)
check(code == 0 and "1 reports checked, 0 failed" in out, f"a gzipped report passes: {out} {err}")

# xz (how the never-slower surveys are committed): found in a folder, checked, and a broken
# stream fails as unreadable.
xz_dir = os.path.join(tmp, "xz")
os.mkdir(xz_dir)
with open(os.path.join(xz_dir, "survey.json.xz"), "wb") as f:
    f.write(lzma.compress(json.dumps(good).encode()))
code, out, err = run_script(SCRIPT, SCHEMA, xz_dir)
check(code == 0 and "1 reports checked, 0 failed" in out, f"an xz report passes: {out} {err}")
with open(os.path.join(xz_dir, "cut.json.xz"), "wb") as f:
    f.write(lzma.compress(json.dumps(good).encode())[:60])
code, out, err = run_script(SCRIPT, SCHEMA, xz_dir)
check(code == 1 and "cut.json.xz: not readable JSON" in out, f"a cut xz stream fails: {out} {err}")

spoiled = json.loads(json.dumps(good))
del spoiled["cases"][0]["id"]
bad = os.path.join(tmp, "spoiled.json")
with open(bad, "w") as f:
    json.dump(spoiled, f)
code, out, err = run_script(SCRIPT, SCHEMA, packed, bad)
check(code == 1 and "2 reports checked, 1 failed" in out, f"a spoiled report fails: {out} {err}")
# A `floor` report: checked against floor-report-schema.json with the bench schema's device block,
# so a spoiled pattern and a spoiled device block both fail, and a good one passes.
FLOOR = os.path.join(SOURCE, "results", "h200", "wave31", "floor-shapes", "floor-copy.json")
with open(FLOOR) as f:
    floor = json.load(f)
floor_dir = os.path.join(tmp, "floor")
os.mkdir(floor_dir)


def version_2(d):
    """The committed version-1 report as version 2 writes it: every pattern timed by each copy
    kernel, its own keys the fastest one's."""
    d["schema_version"] = 2
    for p in d["patterns"]:
        p["copy"] = "tile4"
        p["copies"] = [{"copy": k, "runs_us": p["runs_us"], "median_us": p["median_us"],
                        "gbps": p["gbps"], "pct_of_copy_bandwidth": p["pct_of_copy_bandwidth"]}
                       for k in ("tile4", "tile8", "grid_stride", "memcpy2d")]


def then(*steps):
    def run(d):
        for s in steps:
            s(d)
    return run


for name, spoil in (("good", None),
                    ("pattern", lambda d: d["patterns"][0].pop("gbps")),
                    ("device", lambda d: d["device"].pop("copy_bandwidth_gbps")),
                    ("extra", lambda d: d.update(cases=[])),
                    ("good2", version_2),
                    ("nocopies2", then(version_2, lambda d: d["patterns"][1].pop("copies"))),
                    ("kernel2", then(version_2, lambda d: d["patterns"][0].update(copy="tile16"))),
                    ("copies1", lambda d: d["patterns"][0].update(copy="tile4"))):
    doc = json.loads(json.dumps(floor))
    if spoil:
        spoil(doc)
    with open(os.path.join(floor_dir, f"{name}.json"), "w") as f:
        json.dump(doc, f)
code, out, err = run_script(SCRIPT, SCHEMA, floor_dir)
check(code == 1 and "8 reports checked, 6 failed" in out, f"floor reports: {out} {err}")
for name in ("pattern", "device", "extra", "nocopies2", "kernel2", "copies1"):
    check(f"{name}.json" in out, f"{name}.json named: {out}")
check("good.json" not in out and "good2.json" not in out, f"the good floor reports pass: {out}")
print("check_report_schema_test: ok")
