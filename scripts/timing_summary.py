#!/usr/bin/env python3
"""What a bench report says about its own timing: per mode, the launch floor (and each of its
measurements), how many variant medians lie below it, each variant's median relative noise, the
fused/pair noise ratio, the sampling order and how the speedup intervals were made.

usage: timing_summary.py REPORT.json
"""
import statistics
import sys

from report_json import load_json


def summarize(report):
    lines = []
    t, dev = report["timing"], report["device"]
    lines.append(f"{report.get('git_revision', '?')}  {dev['name']}  order "
                 f"{t.get('order', 'fixed')}  passes {t.get('passes', 1)}")
    by_mode = {}
    for c in report["cases"]:
        if c.get("variants"):
            by_mode.setdefault(c["mode"], []).append(c)
    for mode, cases in sorted(by_mode.items()):
        floor = dev["launch_floor_us"].get(mode)
        runs = dev.get("launch_floor_runs_us", {}).get(mode, [])
        medians = [(c["id"], v["variant"], v["median_us"]) for c in cases for v in c["variants"]]
        below = [m for m in medians if floor is not None and m[2] is not None and m[2] < floor]
        lines.append(f"[{mode}] launch floor {floor} us (measurements {runs}); "
                     f"{len(below)} of {len(medians)} variant medians below it")
        noise = {}
        for c in cases:
            for v in c["variants"]:
                if v.get("rel_noise") is not None:
                    noise.setdefault(v["variant"], []).append(v["rel_noise"])
        for name, xs in sorted(noise.items()):
            lines.append(f"  {name:<12} median rel_noise {100 * statistics.median(xs):.2f} % "
                         f"(max {100 * max(xs):.2f} %, {len(xs)} cases)")
        if "fused" in noise and "pair" in noise:
            ratio = statistics.median(noise["fused"]) / max(statistics.median(noise["pair"]), 1e-12)
            lines.append(f"  fused / pair median noise: {ratio:.2f}x")
        methods = {c["speedup"].get("interval_method", "quartile_hull")
                   for c in cases if c.get("speedup")}
        widths = [(c["speedup"]["hi"] - c["speedup"]["lo"]) / 2 / c["speedup"]["median"]
                  for c in cases if c.get("speedup") and c["speedup"].get("median")
                  and c["spec"]["tokens"] >= 128]
        if widths:
            lines.append(f"  speedup intervals ({', '.join(sorted(methods))}): median half-width "
                         f"{100 * statistics.median(widths):.2f} % at N >= 128")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 1:
        print("usage: timing_summary.py REPORT.json", file=sys.stderr)
        return 2
    try:
        report = load_json(argv[0])
        sys.stdout.write(summarize(report))
    except (OSError, ValueError, KeyError) as e:
        print(f"timing_summary: {argv[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
