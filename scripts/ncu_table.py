#!/usr/bin/env python3
"""Tool vs Nsight Compute: the fused kernel's cold and warm times from a `rope-kv-bench bench`
report beside ncu's gpu__time_duration of the same case, as a Markdown table and a JSON file.

usage: ncu_table.py REPORT.json NCU_DIR OUT.md OUT.json
  REPORT.json  bench --mode cold,warm over the cases (fused median_us is read)
  NCU_DIR      ncu-MODE-HEADS-N.csv files: `ncu --csv --print-units base --metrics
               gpu__time_duration.sum ... rope-kv-bench profile --case ID --variants fused`,
               MODE cold (--cache-control all) or warm (--cache-control none)
Each ncu file's value is the median over its launches. diff % = (tool - ncu) / ncu * 100.
exit: 0 written; 1 an input could not be read (named on stderr); 2 bad usage
"""
import csv
import io
import json
import os
import re
import statistics
import sys

from report_json import load_json

UNIT_TO_US = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3,
              "msecond": 1e3, "s": 1e6, "second": 1e6}
NAME = re.compile(r"^ncu-(cold|warm)-(.+)-N(\d+)\.csv$")


class InputError(Exception):
    pass


def ncu_durations_us(text, where="ncu output"):
    """Every gpu__time_duration.sum value in ncu's --csv output, in microseconds, in launch order.

    ncu's CSV may be preceded by the profiled program's own output and ==PROF== lines; the table
    starts at the header row whose first field is "ID". Numbers may carry thousands separators.
    """
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        raise InputError(f"{where}: no ncu CSV header (a line starting with \"ID\")")
    rows = csv.DictReader(io.StringIO("\n".join(lines[start:])))
    out = []
    for row in rows:
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = row.get("Metric Unit", "")
        if unit not in UNIT_TO_US:
            raise InputError(f"{where}: unknown unit '{unit}' for gpu__time_duration.sum")
        value = float(row["Metric Value"].replace(",", ""))
        out.append(value * UNIT_TO_US[unit])
    if not out:
        raise InputError(f"{where}: no gpu__time_duration.sum rows (no kernel profiled?)")
    return out


def tool_medians(report):
    """(heads, tokens, mode) -> the fused variant's median_us, from a bench report."""
    out = {}
    for c in report["cases"]:
        fused = next((v for v in c.get("variants", []) if v["variant"] == "fused"), None)
        if fused is None or fused.get("median_us") is None:
            continue
        out[(c["spec"]["heads"], int(c["spec"]["tokens"]), c["mode"])] = fused["median_us"]
    return out


def build_rows(report, ncu_files):
    """ncu_files: {file name: CSV text}. One row per (heads, N, mode) that both sides measured."""
    tool = tool_medians(report)
    rows = []
    for name, text in sorted(ncu_files.items()):
        m = NAME.match(name)
        if not m:
            continue
        mode, heads, tokens = m.group(1), m.group(2), int(m.group(3))
        ncu_us = statistics.median(ncu_durations_us(text, name))
        tool_us = tool.get((heads, tokens, mode))
        rows.append({"heads": heads, "tokens": tokens, "mode": mode, "tool_us": tool_us,
                     "ncu_us": ncu_us, "ncu_launches": len(ncu_durations_us(text, name)),
                     "diff_pct": None if tool_us is None else 100.0 * (tool_us - ncu_us) / ncu_us})
    rows.sort(key=lambda r: (r["mode"], r["heads"], r["tokens"]))
    return rows


def markdown(rows, report):
    dev = report.get("device", {})
    out = [f"Fused kernel, bf16, auto cache, neox, nhd: `rope-kv-bench` (median of its samples) vs "
           f"`ncu` gpu__time_duration.sum (median over launches), {dev.get('name', '?')}, "
           f"tool {report.get('git_revision', '?')}.", "",
           "| mode | heads | N | tool µs | ncu µs | diff % |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        tool = "-" if r["tool_us"] is None else f"{r['tool_us']:.2f}"
        diff = "-" if r["diff_pct"] is None else f"{r['diff_pct']:+.1f}"
        out.append(f"| {r['mode']} | {r['heads']} | {r['tokens']} | {tool} | {r['ncu_us']:.2f} | {diff} |")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    report_path, ncu_dir, out_md, out_json = argv
    try:
        report = load_json(report_path)
        files = {}
        for n in os.listdir(ncu_dir):
            if NAME.match(n):
                with open(os.path.join(ncu_dir, n)) as f:
                    files[n] = f.read()
        if not files:
            raise InputError(f"{ncu_dir}: no ncu-MODE-HEADS-N.csv files")
        rows = build_rows(report, files)
    except (OSError, ValueError, KeyError, InputError) as e:
        print(f"ncu_table: {e}", file=sys.stderr)
        return 1
    with open(out_md, "w") as f:
        f.write(markdown(rows, report))
    with open(out_json, "w") as f:
        json.dump({"device": report.get("device", {}).get("name"),
                   "git_revision": report.get("git_revision"), "rows": rows}, f, indent=1)
        f.write("\n")
    print(markdown(rows, report), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
