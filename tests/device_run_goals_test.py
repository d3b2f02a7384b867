#!/usr/bin/env python3
"""scripts/device_run.sh's `goals` step with a stand-in build (no GPU): the stand-in's `bench`
writes a floor-line report made from a committed H200 report. The step must run
configs/floor-line.json, judge the floor goal on that report, the decode goal on a seed table an
earlier step left in $OUT, and say that the call has no PDL report, all into goals.txt. A goal not
met is a result, not a failed step; a report the check cannot read fails the step."""
import copy
import json
import os
import random
import stat
import subprocess
import sys
import tempfile

from script_checks import check, committed_h200_report

SOURCE = sys.argv[1]
tmp = tempfile.mkdtemp()
rng = random.Random()


# The floor report the stand-in writes: wave 22's 48 MHA/GQA cells and 32 MLA rows made from
# them, every value drawn above its goal but `low` rows, drawn below.
floor = committed_h200_report(SOURCE, "wave22", "floor", "floor.json.gz")
mla = copy.deepcopy(floor["cases"][:32])
for i, c in enumerate(mla):
    heads = "mla:16" if i % 2 else "mla:128"
    c["id"] = c["id"].replace(c["spec"]["heads"], heads)
    c["spec"]["heads"] = heads
    c["spec"]["dtype"], c["spec"]["cache_dtype"] = ("bf16", "fp16")[i // 16], ("auto", "fp8_e4m3")[
        (i // 8) % 2]
    c["spec"]["style"], c["spec"]["tokens"] = ("neox", "gptj")[(i // 4) % 2], (16384, 65536)[
        (i // 2) % 2]
floor["cases"] += mla


def stand_in(low):
    """A build folder whose bench writes the floor report with `low` rows below their goal
    ("junk": not JSON)."""
    report = copy.deepcopy(floor)
    for i, c in enumerate(report["cases"]):
        goal = 90.0 if c["spec"]["heads"].startswith("mla:") else 94.0
        c["fused_pct_of_bandwidth"] = (rng.uniform(50.0, goal - 0.01) if low != "junk" and i < low
                                       else rng.uniform(goal, 99.0))
    folder = tempfile.mkdtemp(dir=tmp)
    data = os.path.join(folder, "report.json")
    with open(data, "w") as f:
        f.write("{not json" if low == "junk" else json.dumps(report))
    script = os.path.join(folder, "rope-kv-bench")
    with open(script, "w") as f:
        f.write("#!/usr/bin/env bash\n"
                "args=(\"$@\"); [[ $1 == bench && \" $* \" == *' --config configs/floor-line.json '*"
                " ]] || exit 9\n"
                "for ((i = 0; i < $#; i++)); do\n"
                "  [[ ${args[i]} == --json ]] && cp " + data + " \"${args[i + 1]}\"\n"
                "done\nexit 0\n")
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    return folder


def goals(build, seed=None):
    out = tempfile.mkdtemp(dir=tmp)
    if seed is not None:
        with open(os.path.join(out, "seed-table-run1.json"), "w") as f:
            json.dump(seed, f)
    p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "goals"],
                       env=dict(os.environ, OUT=out, BIN=build), capture_output=True, text=True)
    with open(os.path.join(out, "goals.txt")) as f:
        text = f.read()
    with open(os.path.join(out, "steps.txt")) as f:
        step = f.read().split()
    return p.returncode, text, step


seed = committed_h200_report(SOURCE, "wave23", "seed", "seed-table-run1.json.gz")
for c in seed["cases"]:
    if c["spec"]["tokens"] == 1:
        for v in c["variants"]:
            if v["variant"] == "fused":
                v["median_us"] = rng.uniform(1.0, 1.59)

code, text, step = goals(stand_in(0), seed)
check(code == 0 and step[:2] == ["goals", "0"], f"all met: {code} {step}")
check("== floor (floor-line.json)\n80 of 80 cells meet the goal\n" in text, text)
check("== decode (seed-table-run1.json)\n8 of 8 cells meet the goal\n" in text, text)
check("== pdl: no report in this call" in text, text)

low = rng.randrange(1, 80)
code, text, step = goals(stand_in(low))
check(code == 0 and step[1] == "0", f"a goal not met is a result: {code} {step}")
check(f"{80 - low} of 80 cells meet the goal" in text, text)
check("== decode: no report in this call" in text, text)

code, text, step = goals(stand_in("junk"))
check(code != 0 and step[1] == "1" and "not JSON" in text, f"unreadable: {code} {step} {text}")
print("ok")
