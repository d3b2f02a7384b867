#!/usr/bin/env python3
"""Issue 12's "never slower" check over bench reports (shards, a merged report, or any run).

    scripts/check_never_slower.py REPORT [REPORT...] [--newer REPORT...]

Reports after --newer are re-runs of some cases on a later build: each of their rows replaces the
row of the reports before it with the same id and mode (or joins them where there is none), so a
survey can be recounted after a change that moved only some of its cases; a note after the count
says how many rows each replaced.
Lists every case row whose speedup interval's lower bound (speedup.lo) is below 1.0, that has no
speedup, or whose validation did not pass, with its id, mode and lo / median / hi; then
"K of M cases have lo >= 1.0" (K counts the rows that also passed validation). Exit 0 when every row passes, 1 when any does not, 2 (one line on
stderr) when a report cannot be read or is not a rope-kv-bench report.
"""
import sys

from report_json import fail_input, load_report


def load_rows(path):
    report = load_report("check_never_slower", path)
    cases = report["cases"]
    for c in cases:
        if "id" not in c or "validation" not in c:
            fail_input("check_never_slower", path, "a case without id or validation")
    return cases, report.get("complete", True)


def number(x):
    return "-" if x is None else f"{x:.3f}"


def main(argv):
    args = argv[1:]
    base = args[:args.index("--newer")] if "--newer" in args else args
    newer = args[len(base) + 1:]
    if not base or ("--newer" in args and not newer) or "--newer" in newer:
        print("usage: check_never_slower.py REPORT [REPORT...] [--newer REPORT...]",
              file=sys.stderr)
        return 2
    rows, incomplete, replaced = [], [], []
    for path in base:
        cases, complete = load_rows(path)
        rows.extend(cases)
        if not complete:
            incomplete.append(path)
    for path in newer:
        cases, complete = load_rows(path)
        at = {(c["id"], c.get("mode")): i for i, c in enumerate(rows)}
        count = 0
        for c in cases:
            i = at.get((c["id"], c.get("mode")))
            if i is None:
                rows.append(c)
            else:
                rows[i] = c
                count += 1
        replaced.append((path, count))
        if not complete:
            incomplete.append(path)
    failing = []
    for c in rows:
        disposition = c["validation"].get("disposition")
        speedup = c.get("speedup") or {}
        lo = speedup.get("lo")
        why = []
        if disposition != "passed":
            why.append(f"validation {disposition}")
        if lo is None:
            why.append("no speedup")
        elif lo < 1.0:
            why.append("lo < 1.0")
        if why:
            failing.append((c, speedup, why))
    for c, s, why in failing:
        print(f"{c['id']}\tmode {c.get('mode') or '-'}\tlo {number(s.get('lo'))} "
              f"median {number(s.get('median'))} hi {number(s.get('hi'))}\t{'; '.join(why)}")
    passing = len(rows) - len(failing)
    print(f"{passing} of {len(rows)} cases have lo >= 1.0")
    for path, count in replaced:
        print(f"note: {count} rows of {path} replace those of the reports before it")
    for path in incomplete:
        print(f"note: {path} is an incomplete run (interrupted): cases are missing")
    return 0 if rows and not failing and not incomplete else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
