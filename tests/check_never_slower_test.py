#!/usr/bin/env python3
"""scripts/check_never_slower.py on a committed H200 report and on copies of it spoiled in one
way each: a lower bound below 1.0, a validation that did not pass, an unreadable input."""
import gzip
import json
import lzma
import os
import subprocess
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
CLI = sys.argv[2] if len(sys.argv) > 2 else None  # rope-kv-bench, for the merge round trip
SCRIPT = os.path.join(SOURCE, "scripts", "check_never_slower.py")
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")


def run(*args):
    return run_script(SCRIPT, *args)


with open(REPORT) as f:
    good = json.load(f)
n = len(good["cases"])
tmp = tempfile.mkdtemp()

code, out, err = run(REPORT)
check(code == 0 and out.strip().endswith(f"{n} of {n} cases have lo >= 1.0"), f"all pass: {out}")

slow = json.loads(json.dumps(good))
slow["cases"][3]["speedup"]["lo"] = 0.93
slow["cases"][5]["validation"]["disposition"] = "incorrect"
slow_path = os.path.join(tmp, "slow.json")
with open(slow_path, "w") as f:
    json.dump(slow, f)
code, out, err = run(slow_path)
lines = out.strip().splitlines()
check(code == 1, f"a slow case fails: {code}")
check(lines[0].startswith(slow["cases"][3]["id"] + "\tmode graph\tlo 0.930 "), lines[0])
check("validation incorrect" in lines[1] and lines[1].startswith(slow["cases"][5]["id"]), lines[1])
check(lines[-1] == f"{n - 2} of {n} cases have lo >= 1.0", lines[-1])

# Two reports (shards) are pooled.
code, out, err = run(REPORT, slow_path)
check(code == 1 and out.strip().splitlines()[-1] == f"{2 * n - 2} of {2 * n} cases have lo >= 1.0",
      out)

# A re-run given after --newer replaces the rows with its ids and modes: the slow copy's rows
# of cases 3 and 5 put back by the good report's, the rest of the good report left where it is.
fixed = json.loads(json.dumps(good))
fixed["cases"] = [good["cases"][3], good["cases"][5]]
fixed_path = os.path.join(tmp, "fixed.json")
with open(fixed_path, "w") as f:
    json.dump(fixed, f)
code, out, err = run(slow_path, "--newer", fixed_path)
lines = out.strip().splitlines()
check(code == 0 and lines[-2] == f"{n} of {n} cases have lo >= 1.0", out)
check(lines[-1] == f"note: 2 rows of {fixed_path} replace those of the reports before it", out)
code, out, err = run(REPORT, "--newer", slow_path)  # every row replaced, none added
check(code == 1 and out.strip().splitlines()[-2] == f"{n - 2} of {n} cases have lo >= 1.0", out)
for args in [("--newer", REPORT), (REPORT, "--newer"), (REPORT, "--newer", REPORT, "--newer", REPORT)]:
    code, out, err = run(*args)
    check(code == 2 and out == "" and "usage" in err, f"{args}: {err}")

# A gzip-compressed report (how big ones are committed) reads as the report itself.
zipped = os.path.join(tmp, "slow.json.gz")
with open(slow_path, "rb") as f, gzip.open(zipped, "wb") as z:
    z.write(f.read())
check(run(zipped) == run(slow_path), "a gzip report reads as the report itself")
xz_packed = os.path.join(tmp, "slow.json.xz")
with open(slow_path, "rb") as f, lzma.open(xz_packed, "wb") as z:
    z.write(f.read())
check(run(xz_packed) == run(slow_path), "an xz report reads as the report itself")
xz_cut = os.path.join(tmp, "cut.json.xz")
with open(xz_packed, "rb") as f, open(xz_cut, "wb") as t:
    t.write(f.read()[:40])
truncated = os.path.join(tmp, "truncated.json.gz")
with open(zipped, "rb") as f, open(truncated, "wb") as t:
    t.write(f.read()[:40])

bad = os.path.join(tmp, "bad.json")
with open(bad, "w") as f:
    f.write("{ not json")
for path, why in [(bad, "not JSON"), (os.path.join(tmp, "none.json"), "No such file"),
                  (truncated, "not a readable gzip file"), (xz_cut, "not a readable xz file"),
                  (os.path.join(SOURCE, "configs", "seed-table.json"), "not a rope-kv-bench report")]:
    code, out, err = run(REPORT, path)
    check(code == 2 and out == "" and len(err.splitlines()) == 1 and why in err, f"{path}: {err}")
# The seed run split into two shards (case i into shard i % 2 + 1), merged back by the CLI: the
# same cases in the same order, and the check passes on the merged report.
if CLI:
    paths = []
    for k in (1, 2):
        part = json.loads(json.dumps(good))
        part["cases"] = good["cases"][k - 1::2]
        part["run"]["shard"] = {"indices": [k], "count": 2, "planned_cases": n}
        paths.append(os.path.join(tmp, f"shard-{k}.json"))
        with open(paths[-1], "w") as f:
            json.dump(part, f)
    merged = os.path.join(tmp, "merged.json")
    p = subprocess.run([CLI, "merge", "--json", merged, paths[1], paths[0]], capture_output=True,
                       text=True)
    check(p.returncode == 0 and p.stderr == "", f"merge: {p.returncode} {p.stderr}")
    with open(merged) as f:
        m = json.load(f)
    check([c["id"] for c in m["cases"]] == [c["id"] for c in good["cases"]], "merged order")
    check(m["run"]["shard"] == {"indices": [1, 2], "count": 2, "planned_cases": n}, m["run"])
    check(m["complete"] is True, "merged complete")
    code, out, err = run(*paths)
    check(code == 0, f"shards pooled: {out}")
    code, out, err = run(merged)
    check(code == 0 and out.strip().endswith(f"{n} of {n} cases have lo >= 1.0"), out)
    p = subprocess.run([CLI, "merge", "--json", merged, paths[0]], capture_output=True, text=True)
    check(p.returncode == 4 and "shard 2 of 2 missing" in p.stderr, p.stderr)
    p = subprocess.run([CLI, "merge", "--allow-partial", "--json", merged, paths[0]],
                       capture_output=True, text=True)
    with open(merged) as f:
        check(p.returncode == 0 and json.load(f)["complete"] is False, "partial merge")
print("ok")
