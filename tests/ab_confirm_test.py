#!/usr/bin/env python3
"""scripts/ab_confirm.py: the cases a committed decision file marks "confirm", and the judge of a
re-run on a committed H200 report with the fused medians scaled per run: held, slower in both
runs, slower in one run only, a case not measured, unreadable inputs."""
import json
import os
import random
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "ab_confirm.py")
CALL1 = os.path.join(SOURCE, "results", "h200", "wave14", "ab-s16-call1")
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")
tmp = tempfile.mkdtemp()
rng = random.Random()

# The committed decision files of session 16: one fused case and none of the pair's.
code, out, err = run_script(SCRIPT, "cases", os.path.join(CALL1, "decision-exp-rolewarps.txt"),
                            os.path.join(CALL1, "decision-exp-rolewarps-pair.txt"))
check(code == 0 and out.splitlines() == ["bf16|fp8_e4m3|32x8x128|neox|nhd|N=128\tgraph\tfused"],
      f"the marked case of rolewarps: {out!r} {err!r}")
# Every row marked "confirm" is listed, whatever the verdict (noslotwait's was a reject).
noslot = os.path.join(CALL1, "decision-exp-noslotwait.txt")
with open(noslot) as f:
    marked = [line.split()[0] for line in f if "|" in line and "  confirm" in line]
code, out, err = run_script(SCRIPT, "cases", noslot)
check(code == 0 and len(marked) >= 2 and [l.split("\t")[0] for l in out.splitlines()] == marked,
      f"each marked row once, in order: {out!r}")

with open(REPORT) as f:
    good = json.load(f)
picked = rng.sample([c["id"] for c in good["cases"]], 3)
cases = os.path.join(tmp, "cases.txt")
with open(cases, "w") as f:
    f.write("".join(f"{i}\tgraph\tfused\n" for i in picked))


def run_with(factors):
    """A copy of the report with case picked[k]'s fused median times factors[k]."""
    r = json.loads(json.dumps(good))
    for c in r["cases"]:
        for v in c["variants"]:
            if v["variant"] == "fused" and c["id"] in picked:
                v["median_us"] *= factors[picked.index(c["id"])]
    path = os.path.join(tmp, f"run-{rng.random()}.json")
    with open(path, "w") as f:
        json.dump(r, f)
    return path


def judge(exp1, exp2, *extra):
    return run_script(SCRIPT, "judge", "--cases", cases, "--base", REPORT, "--exp", exp1,
                      "--exp", exp2, *extra)


level = [rng.uniform(0.99, 1.015) for _ in picked]
code, out, err = judge(run_with(level), run_with(level))
check(code == 0 and "verdict: confirmed (3 case(s)" in out, f"level runs hold: {out[-300:]}")
one_slow = [1.03, 1.0, 1.0]
code, out, err = judge(run_with(one_slow), run_with([1.0, 1.0, 1.0]))
check(code == 0, f"slower in one run only holds: {out[-300:]}")
code, out, err = judge(run_with(one_slow), run_with(one_slow))
check(code == 1 and "1 case(s) more than 2 % slower in both runs" in out and
      out.count("SLOWER") == 1, f"slower in both runs: {out[-300:]}")
code, out, err = judge(run_with(one_slow), run_with(one_slow), "--max-slower", "4")
check(code == 0, f"--max-slower 4 lets 3 % pass: {out[-300:]}")

missing = json.loads(json.dumps(good))
missing["cases"] = [c for c in missing["cases"] if c["id"] != picked[1]]
gone = os.path.join(tmp, "missing.json")
with open(gone, "w") as f:
    json.dump(missing, f)
code, out, err = judge(run_with(level), gone)
check(code == 1 and "1 case(s) not measured" in out, f"a case not measured rejects: {out[-300:]}")

bad = os.path.join(tmp, "bad.json")
with open(bad, "w") as f:
    f.write("{not json")
for args in (["judge", "--cases", cases, "--base", bad, "--exp", REPORT, "--exp", REPORT],
             ["judge", "--cases", bad, "--base", REPORT, "--exp", REPORT, "--exp", REPORT],
             ["cases", os.path.join(tmp, "absent.txt")]):
    code, out, err = run_script(SCRIPT, *args)
    check(code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err,
          f"{args[0]} on a bad input: exit {code}, {err!r}")
code, out, err = run_script(SCRIPT, "judge", "--cases", cases, "--base", REPORT, "--exp", REPORT)
check(code == 2 and "exactly twice" in err, f"one --exp is a usage error: {err!r}")
print("ab_confirm: all checks passed")
