#!/usr/bin/env python3
"""Every experiment of one A/B call side by side: per case, each build's median change against
the base, for sweeps (one knob at several values) whose trend one-experiment verdicts hide.

    scripts/ab_table.py AB_DIR [--variant NAME]

AB_DIR is the `ab/` folder of `scripts/device_run.sh ab` (ab.tar.gz unpacked): base-CFG.json,
base-CFG-again.json where the base ran twice, and exp-NAME-CFG.json for each experiment, for
every config CFG. Each build's reports of all configs are one run (as ab_compare.py joins them);
the base is the geometric mean of its two runs. Prints a Markdown table: case, mode, base median
(us), then one column per experiment (change in percent, negative: faster), and a last row with
each experiment's geometric mean over the cases. Experiments are ordered by name, numbers in
names by value (cap6 before cap12). Exit 2 with one line on stderr when the folder has no base
report or a report cannot be read.
"""
import argparse
import math
import os
import re
import signal
import sys

from ab_compare import geomean, load_medians
from report_json import fail_input


def natural_key(name):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ab_dir", help="the ab/ folder of one device call")
    ap.add_argument("--variant", default="fused", help="variant compared (default fused)")
    args = ap.parse_args()
    try:
        files = sorted(os.listdir(args.ab_dir))
    except OSError as e:
        fail_input("ab_table", args.ab_dir, e.strerror or str(e))
    configs = [m.group(1) for f in files if (m := re.fullmatch(r"base-(.+)\.json", f))
               and not f.endswith("-again.json")]
    if not configs:
        fail_input("ab_table", args.ab_dir, "no base-CFG.json report")
    names = sorted({m.group(1) for f in files for cfg in configs
                    if (m := re.fullmatch(r"(exp-.+)-" + re.escape(cfg) + r"\.json", f))},
                   key=natural_key)

    def run(prefix, suffix=""):
        paths = [os.path.join(args.ab_dir, f"{prefix}-{cfg}{suffix}.json") for cfg in configs]
        present = [p for p in paths if os.path.exists(p)]
        return load_medians(",".join(present), args.variant) if present else None

    bases = [b for b in (run("base"), run("base", "-again")) if b is not None]
    exps = {name: run(name) for name in names}
    header = "| case | mode | base us | " + " | ".join(n.removeprefix("exp-") for n in names) + " |"
    print(header)
    print("|" + " --- |" * (3 + len(names)))
    ratios = {name: [] for name in names}
    for key in bases[0]:
        if not all(key in b for b in bases):
            continue
        base = geomean([b[key][0] for b in bases])
        cells = []
        for name in names:
            exp = exps[name]
            if exp is None or key not in exp:
                cells.append("-")
                continue
            ratios[name].append(exp[key][0] / base)
            cells.append(f"{100 * (exp[key][0] / base - 1):+.1f}")
        case = key[0].replace("|", "\\|")  # a case id's separators, escaped for Markdown
        print(f"| {case} | {key[1]} | {base:.2f} | " + " | ".join(cells) + " |")
    means = [f"{100 * (geomean(ratios[n]) - 1):+.2f}" if ratios[n] else "-" for n in names]
    print("| geometric mean | | | " + " | ".join(means) + " |")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the table quietly, as for cat
    sys.exit(main())
