#!/usr/bin/env python3
"""Plot a `rope-kv-bench bench --json` report: speedup (pair / fused, with its quartile interval)
and the fused kernel's share of the measured copy bandwidth, against tokens, one line per table row.

Usage: scripts/plot_speedup.py REPORT.json [-o OUT.png]   (default: REPORT.png beside the report)

A row is a case id without its N=tokens field (docs/report.md); the fields every row shares
(e.g. neox|nhd in the seed table) are left out of the legend. Needs only matplotlib.
"""
import argparse
import sys
from collections import defaultdict

from report_json import load_json

try:
    import matplotlib

    matplotlib.use("Agg")  # files only; no display needed (CI, GPU boxes)
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_speedup: needs matplotlib (python3 -m pip install matplotlib)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("-o", "--out", help="PNG to write (default: REPORT.png)")
    args = ap.parse_args()
    try:
        report = load_json(args.report)
    except (OSError, ValueError) as e:
        sys.exit(f"plot_speedup: {args.report}: {e}")
    if report.get("schema_version") != 1:
        sys.exit(f"plot_speedup: {args.report}: schema_version {report.get('schema_version')} is not 1")

    modes = {c["mode"] for c in report["cases"] if c["mode"]}
    rows = defaultdict(list)  # row key (id fields without N=, plus the mode) -> [(tokens, case)]
    for c in report["cases"]:
        if not c["mode"] or not c.get("speedup") or c["speedup"]["median"] is None:
            continue  # validated only, failed, or nothing measured
        fields = [f for f in c["id"].split("|") if not f.startswith("N=")]
        if len(modes) > 1:
            fields.append(c["mode"])
        rows[tuple(fields)].append((c["spec"]["tokens"], c))
    if not rows:
        sys.exit(f"plot_speedup: {args.report} holds no timed case")

    # Keep only the fields that tell rows apart (by position: ids order their fields the same way).
    keys = list(rows)
    width = min(len(k) for k in keys)
    varying = [i for i in range(width) if len({k[i] for k in keys}) > 1]
    label = lambda k: "|".join([k[i] for i in varying] + list(k[width:])) or "|".join(k)

    fig, (ax_s, ax_b) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    for key in keys:
        pts = sorted(rows[key], key=lambda p: p[0])
        n = [t for t, _ in pts]
        s = [c["speedup"] for _, c in pts]
        med = [x["median"] for x in s]
        lo = [m - (x["lo"] if x["lo"] is not None else m) for m, x in zip(med, s)]
        hi = [(x["hi"] if x["hi"] is not None else m) - m for m, x in zip(med, s)]
        ax_s.errorbar(n, med, yerr=[lo, hi], marker="o", capsize=3, label=label(key))
        pct = [c["fused_pct_of_bandwidth"] for _, c in pts]
        ax_b.plot(n, [p if p is not None else float("nan") for p in pct], marker="o",
                  label=label(key))

    dev = report["device"]
    ax_s.axhline(1.0, color="gray", lw=0.8, ls="--")
    ax_s.set_ylabel("speedup (pair / fused)")
    ax_s.set_title(f"{dev['name']}, {'/'.join(sorted(modes))} timing, "
                   f"{report.get('git_revision', '')}")
    ax_s.legend(fontsize="small", ncol=2)
    ax_b.set_ylabel("fused, % of copy bandwidth")
    ax_b.set_xlabel("tokens")
    ax_b.set_xscale("log", base=2)
    tokens = sorted({t for pts in rows.values() for t, _ in pts})
    if len(tokens) <= 16:
        ax_b.set_xticks(tokens, [str(t) for t in tokens])
    bw = dev.get("copy_bandwidth_gbps")
    if bw:
        ax_b.text(0.01, 0.95, f"copy bandwidth {bw:.0f} GB/s", transform=ax_b.transAxes, va="top")
    for ax in (ax_s, ax_b):
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    out = args.out or (args.report[:-5] if args.report.endswith(".json") else args.report) + ".png"
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
