#!/usr/bin/env python3
"""Between-machine spread: how far one build's timings move when the same sweep runs on another
GPU of the same model, beyond what each run's own pass-to-pass noise explains.

usage: between_machine.py [--root DIR] [--json FILE]
  --root DIR   the repository root (default: this script's parent folder's parent)
  --json FILE  also write both tables as JSON

It reads the committed same-build report pairs made on different machines (PAIRS below) and
prints, per token class (decode: tokens <= 8, mid: 9..1024, large: > 1024), the estimated
standard deviation sigma of the log of a timing between two machines:

  fused own time  d = log(median_b / median_a) of each matched case (same id and mode), with the
                  fused variant's pooled median; each run's within-run variance of that log is
                  var(log pass medians) / P (P passes); sigma^2 = max(0, mean over cases and pairs
                  of d^2 - within_a - within_b) / 2.
  speedup         d = log(gm_b / gm_a), gm the geometric mean of the case's per-pass speedups;
                  each run's within term is w^2 / P with w^2 = (4 t + (P - 1) s^2) / (4 + P - 1),
                  s^2 the sample variance of the case's log pass speedups and t the median of s^2
                  over that run's cases (a few passes say little on their own, so each case's
                  variance is pulled toward the run's typical one); sigma^2 = max(0, mean of
                  d^2 / 2 - (within_a + within_b) / 2).

The division by 2 makes sigma one machine's deviation: the difference of two machines has
sqrt(2) sigma. The perf gate's machine allowances (src/gate/gate_rule.h, RuleParams: decode, mid
and large) are 2.5 sqrt(2) sigma of the fused class, rounded up to 0.5 %, and apply when the
baseline was not measured on the same GPU; docs/ci.md explains them.
exit: 0 printed; 1 a report could not be read or has no matched case (named on stderr)
"""
import argparse
import json
import math
import os
import statistics
import sys

from report_json import load_json

# Same build, same config and settings, each run on a different H200 (results/h200/wave2; runs 2
# and 3 gzipped for the tree's size, read as they are).
PAIRS = [
    ("results/h200/wave2/seed-table-run1.json", "results/h200/wave2/seed-table-run2.json.gz"),
    ("results/h200/wave2/seed-table-run1.json", "results/h200/wave2/seed-table-run3.json.gz"),
    ("results/h200/wave2/seed-table-run2.json.gz", "results/h200/wave2/seed-table-run3.json.gz"),
]
CLASSES = ("decode", "mid", "large")
SHRINK_WEIGHT = 4  # the pseudo-count of the run's typical variance in the speedup's within term


class InputError(Exception):
    pass


def token_class(tokens):
    return "decode" if tokens <= 8 else "mid" if tokens <= 1024 else "large"


def load(path):
    try:
        report = load_json(path)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: {e}")
    cases = {}
    for c in report.get("cases", []):
        if (c.get("validation") or {}).get("disposition") != "passed":
            continue
        cases[(c["id"], c["mode"])] = c
    return cases


def fused(case):
    for v in case.get("variants", []):
        if v.get("variant") == "fused":
            return v
    return None


def fused_point(case):
    """(log pooled median, within-run variance of it), or None when the case has no fused time."""
    v = fused(case)
    if not v or not v.get("passes") or not v.get("median_us", 0) > 0:
        return None
    logs = [math.log(p["median_us"]) for p in v["passes"]]
    within = statistics.variance(logs) / len(logs) if len(logs) > 1 else 0.0
    return math.log(v["median_us"]), within


def speedup_logs(case):
    s = case.get("speedup") or {}
    pm = s.get("pass_medians") or []
    if not pm or min(pm) <= 0:
        return None
    return [math.log(x) for x in pm]


def speedup_points(cases):
    """Per case: (log geometric mean of pass speedups, shrunk within-run variance of it)."""
    logs = {k: speedup_logs(c) for k, c in cases.items()}
    logs = {k: l for k, l in logs.items() if l}
    s2 = {k: statistics.variance(l) for k, l in logs.items() if len(l) > 1}
    t = statistics.median(s2.values()) if s2 else 0.0
    out = {}
    for k, l in logs.items():
        p = len(l)
        w2 = (SHRINK_WEIGHT * t + (p - 1) * s2.get(k, 0.0)) / (SHRINK_WEIGHT + p - 1)
        out[k] = (statistics.fmean(l), w2 / p)
    return out


def spread(pairs_of_points):
    """sigma per class from [(class, d, within_a, within_b)], and the number of terms."""
    terms = {c: [] for c in CLASSES}
    for cls, d, wa, wb in pairs_of_points:
        terms[cls].append(d * d - wa - wb)
    out = {}
    for cls in CLASSES:
        t = terms[cls]
        out[cls] = {"n": len(t),
                    "sigma": math.sqrt(max(0.0, statistics.fmean(t)) / 2) if t else None}
    return out


def estimate(root, pairs=PAIRS):
    fused_terms, speedup_terms = [], []
    for a_path, b_path in pairs:
        a = load(os.path.join(root, a_path))
        b = load(os.path.join(root, b_path))
        matched = sorted(set(a) & set(b))
        if not matched:
            raise InputError(f"{a_path} / {b_path}: no case in common")
        sa, sb = speedup_points(a), speedup_points(b)
        for key in matched:
            cls = token_class(a[key]["spec"]["tokens"])
            fa, fb = fused_point(a[key]), fused_point(b[key])
            if fa and fb:
                fused_terms.append((cls, fb[0] - fa[0], fa[1], fb[1]))
            if key in sa and key in sb:
                speedup_terms.append((cls, sb[key][0] - sa[key][0], sa[key][1], sb[key][1]))
    return {"pairs": [list(p) for p in pairs], "fused": spread(fused_terms),
            "speedup": spread(speedup_terms)}


def text(result):
    lines = [f"between-machine spread (sigma of one machine's log timing), "
             f"{len(result['pairs'])} same-build pairs"]
    for table, title in (("fused", "fused own time"), ("speedup", "speedup (pair / fused)")):
        lines.append(f"{title}:")
        for cls in CLASSES:
            r = result[table][cls]
            s = "-" if r["sigma"] is None else f"{100 * r['sigma']:.2f} %"
            allowance = "" if r["sigma"] is None else \
                f"   2.5 x sqrt(2) x sigma = {250 * math.sqrt(2) * r['sigma']:.2f} %"
            lines.append(f"  {cls:<7} {s:>8}  ({r['n']} case pairs){allowance}")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--json", dest="json_path")
    args = parser.parse_args(argv)
    try:
        result = estimate(args.root)
    except (InputError, KeyError) as e:
        print(f"between_machine: {e}", file=sys.stderr)
        return 1
    print(text(result), end="")
    if args.json_path:
        with open(args.json_path, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
