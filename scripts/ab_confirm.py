#!/usr/bin/env python3
"""The five-pass confirmation of the kernel A/B rule (results/NOTES.md): what ab_compare.py's
"confirm first" verdict (exit 3) asks for before a build is adopted.

    scripts/ab_confirm.py cases DECISION.txt [DECISION-pair.txt ...]
    scripts/ab_confirm.py judge --cases CASES.txt --base BASE.json --exp EXP1.json --exp EXP2.json
                                [--max-slower PCT]

`cases` prints one line per case that a decision file of ab_compare.py marks "confirm":
"ID<TAB>MODE<TAB>VARIANT" (VARIANT pair for a file named *-pair.txt, else fused). Exit 0, or 2
(one line on stderr) when a file cannot be read.

`judge` reads those lines and three reports of the re-run, taken in the order exp / base / exp
(each may be several reports joined by commas: one run per timing mode). A case confirms as
slower only when *both* experiment runs' medians of its variant are more than --max-slower percent
(default 2) above the base run's: one noisy run either way does not decide it. Prints each case's
two changes and a verdict line. Exit 0: every case holds (adopt); 1: a case is slower or was not
measured (reject); 2 (one line on stderr): an input cannot be read.
"""
import argparse
import os
import sys

from report_json import fail_input, load_report

PROG = "ab_confirm"


def confirm_cases(path):
    variant = "pair" if os.path.basename(path).endswith("-pair.txt") else "fused"
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        fail_input(PROG, path, getattr(e, "strerror", None) or str(e))
    cases = []
    for line in lines:
        words = line.split()
        # A case row: id, mode, base us, exp us, change, ...; the marks follow the numbers.
        if len(words) >= 5 and "|" in words[0] and "confirm" in words[5:]:
            cases.append((words[0], words[1], variant))
    return cases


def medians(paths):
    """{(id, mode, variant): median us} over one run's reports, joined by commas."""
    found = {}
    for path in paths.split(","):
        for case in load_report(PROG, path)["cases"]:
            for v in case.get("variants") or []:
                value = v.get("median_us") if isinstance(v, dict) else None
                if isinstance(value, (int, float)) and value > 0:
                    found[(case.get("id"), case.get("mode"), v.get("variant"))] = float(value)
    return found


def read_case_list(path):
    try:
        with open(path, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except (OSError, UnicodeDecodeError) as e:
        fail_input(PROG, path, getattr(e, "strerror", None) or str(e))
    if not rows or any(len(r) != 3 for r in rows):
        fail_input(PROG, path, "not a list of ID<TAB>MODE<TAB>VARIANT lines")
    return [tuple(r) for r in rows]


def judge(args):
    cases = read_case_list(args.cases)
    base = medians(args.base)
    runs = [medians(p) for p in args.exp]
    slower, missing = [], []
    print(f"{'case':52s} {'mode':5s} {'variant':7s} {'base us':>9s} {'exp 1':>7s} {'exp 2':>7s}")
    for key in cases:
        if key not in base or any(key not in r for r in runs):
            missing.append(key)
            print(f"{key[0]:52s} {key[1]:5s} {key[2]:7s}  not measured in every run")
            continue
        changes = [100.0 * (r[key] / base[key] - 1.0) for r in runs]
        is_slower = all(c > args.max_slower for c in changes)
        if is_slower:
            slower.append(key)
        print(f"{key[0]:52s} {key[1]:5s} {key[2]:7s} {base[key]:9.3f} {changes[0]:+6.2f}% "
              f"{changes[1]:+6.2f}%{'  SLOWER' if is_slower else ''}")
    if slower or missing:
        why = []
        if slower:
            why.append(f"{len(slower)} case(s) more than {args.max_slower:g} % slower in both runs")
        if missing:
            why.append(f"{len(missing)} case(s) not measured")
        print("verdict: reject (" + "; ".join(why) + ")")
        return 1
    print(f"verdict: confirmed ({len(cases)} case(s) within {args.max_slower:g} % in at least "
          "one of the two runs)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cases", help="the cases a decision file asks to confirm")
    c.add_argument("decisions", nargs="+")
    j = sub.add_parser("judge", help="the verdict of the exp / base / exp re-run")
    j.add_argument("--cases", required=True, help="the output of `cases`")
    j.add_argument("--base", required=True, help="the base run's report(s), joined by commas")
    j.add_argument("--exp", action="append", required=True,
                   help="an experiment run's report(s); exactly twice")
    j.add_argument("--max-slower", type=float, default=2.0, help="percent (default 2)")
    args = ap.parse_args()
    if args.command == "cases":
        for path in args.decisions:
            for case in confirm_cases(path):
                print("\t".join(case))
        return 0
    if len(args.exp) != 2:
        ap.error("--exp exactly twice (the runs before and after the base)")
    return judge(args)


if __name__ == "__main__":
    sys.exit(main())
