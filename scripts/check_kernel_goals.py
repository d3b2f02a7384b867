#!/usr/bin/env python3
"""Issue 12's measurable goals for the fused kernel, judged from the tool's own reports.

    scripts/check_kernel_goals.py floor  REPORT [REPORT...]
    scripts/check_kernel_goals.py decode REPORT [REPORT...]
    scripts/check_kernel_goals.py pdl    REPORT [REPORT...]

A goal names cells (combinations of case axes); a cell is met when the reports hold at least one
row of it and every such row passed validation and meets the goal. Rows of all the reports given
are pooled, so give the runs that should count (a re-run beside the run it replaces would let the
older row speak too). Axes a goal does not name (layout, slots, scale, ...) match any value.
  floor   cold mode, full rotary, 16384 and 65536 tokens, bf16/fp16 x auto/fp8_e4m3 x neox/gptj:
          fused_pct_of_bandwidth >= 94 for 32x32x128, 32x8x128, 64x8x128 and >= 90 for mla:16
          and mla:128 (80 cells; configs/floor-line.json times exactly them). The issue names no
          dtype or cache for MLA; we read its MLA clause over the same axes as the first.
  decode  graph mode, 1 token, bf16/fp16 x 32x32x128, 32x8x128: the fused median <= 1.6 us with
          auto caches and <= 1.8 us with fp8_e4m3 (8 cells; configs/seed-table.json has them),
          any style.
  pdl     mode producer_pdl, 1 token: what the fused kernel adds after the producer (the fused
          variant's median in that mode) <= 1.0 us, for every heads x cache the reports time
          (configs/pdl.json: 4 cells). Judged on the default producer only: a report whose
          producer streamed weights first (timing.producer_read_mib > 0) is refused.
Prints one line per cell that is not met (the cell, each row's id and value, and why), one line
per missing cell, then "K of M cells meet the goal". Exit 0 when every cell is met, 1 when any is
not (or a report is an interrupted run), 2 (one line on stderr) on bad usage or a report that
cannot be read or is not a rope-kv-bench report.
"""
import itertools
import sys

from report_json import fail_input, load_report

PROG = "check_kernel_goals"
DTYPES = ("bf16", "fp16")
CACHES = ("auto", "fp8_e4m3")
STYLES = ("neox", "gptj")
PREFILL_TOKENS = (16384, 65536)
FLOOR_HEADS = {"32x32x128": 94.0, "32x8x128": 94.0, "64x8x128": 94.0,
               "mla:16": 90.0, "mla:128": 90.0}
DECODE_HEADS = ("32x32x128", "32x8x128")
DECODE_US = {"auto": 1.6, "fp8_e4m3": 1.8}
PDL_US = 1.0


def fused_median(case):
    variants = case.get("variants")
    for v in variants if isinstance(variants, list) else []:
        if isinstance(v, dict) and v.get("variant") == "fused":
            return v.get("median_us")
    return None


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class Goal:
    """Cells (tuples of axis values), how a row maps to its cell, and its value and bound."""

    def __init__(self, cells, key, value, bound, unit, at_most):
        self.cells, self.key, self.value = cells, key, value
        self.bound, self.unit, self.at_most = bound, unit, at_most

    def meets(self, cell, x):
        return x <= self.bound(cell) if self.at_most else x >= self.bound(cell)

    def bound_text(self, cell):
        return f"{'<=' if self.at_most else '>='} {self.bound(cell):g}{self.unit}"


def spec_key(case, *names):
    spec = case.get("spec")
    if not isinstance(spec, dict):
        return None
    return tuple(spec.get(n) for n in names)


def floor_goal():
    cells = list(itertools.product(DTYPES, CACHES, FLOOR_HEADS, STYLES, PREFILL_TOKENS))

    def key(case):
        if case.get("mode") != "cold" or spec_key(case, "rot_dim") != (0,):
            return None
        return spec_key(case, "dtype", "cache_dtype", "heads", "style", "tokens")

    return Goal(cells, key, lambda c: c.get("fused_pct_of_bandwidth"),
                lambda cell: FLOOR_HEADS[cell[2]], " %", at_most=False)


def decode_goal():
    cells = list(itertools.product(DTYPES, CACHES, DECODE_HEADS))

    def key(case):
        if case.get("mode") != "graph" or spec_key(case, "tokens") != (1,):
            return None
        return spec_key(case, "dtype", "cache_dtype", "heads")

    return Goal(cells, key, fused_median, lambda cell: DECODE_US[cell[1]], " us", at_most=True)


def pdl_goal(rows):
    def key(case):
        if case.get("mode") != "producer_pdl" or spec_key(case, "tokens") != (1,):
            return None
        return spec_key(case, "heads", "cache_dtype")

    cells = sorted({k for k in map(key, rows) if k is not None and None not in k},
                   key=lambda k: tuple(map(str, k)))
    return Goal(cells, key, fused_median, lambda cell: PDL_US, " us", at_most=True)


def cell_text(cell):
    return "|".join(str(x) for x in cell)


def judge(goal, rows):
    """(lines for the cells not met, cells met, cells in all)."""
    by_cell = {}
    for case in rows:
        k = goal.key(case)
        if k is not None:
            by_cell.setdefault(k, []).append(case)
    lines, met = [], 0
    for cell in goal.cells:
        found = by_cell.get(cell)
        if not found:
            lines.append(f"{cell_text(cell)}\tmissing: no row in the reports")
            continue
        why = []
        for case in found:
            value = goal.value(case)
            validation = case.get("validation")
            disposition = validation.get("disposition") if isinstance(validation, dict) else None
            if disposition != "passed":
                why.append(f"{case.get('id')}: validation {disposition}")
            elif not number(value):
                why.append(f"{case.get('id')}: no value")
            elif not goal.meets(cell, value):
                why.append(f"{case.get('id')}: {value:.3f}, not {goal.bound_text(cell)}")
        if why:
            lines.append(f"{cell_text(cell)}\t" + "; ".join(why))
        else:
            met += 1
    return lines, met, len(goal.cells)


def producer_read(report, path):
    timing = report.get("timing")
    mib = timing.get("producer_read_mib", 0) if isinstance(timing, dict) else 0
    if not number(mib):
        fail_input(PROG, path, "timing.producer_read_mib is not a number")
    return mib


def main(argv):
    if len(argv) < 3 or argv[1] not in ("floor", "decode", "pdl"):
        print("usage: check_kernel_goals.py floor|decode|pdl REPORT [REPORT...]", file=sys.stderr)
        return 2
    line, paths = argv[1], argv[2:]
    rows, incomplete = [], []
    for path in paths:
        report = load_report(PROG, path)
        if line == "pdl" and producer_read(report, path) > 0:
            fail_input(PROG, path, "its producer streamed weights first "
                       "(timing.producer_read_mib > 0); the PDL goal is judged on the default "
                       "producer")
        rows.extend(report["cases"])
        if report.get("complete") is False:
            incomplete.append(path)
    if line == "floor":
        goal = floor_goal()
    elif line == "decode":
        goal = decode_goal()
    else:  # the PDL goal's cells are the heads x cache the reports time
        goal = pdl_goal(rows)
    lines, met, total = judge(goal, rows)
    for text in lines:
        print(text)
    if total == 0:
        print("no cell: the reports hold no row of mode producer_pdl at 1 token")
    print(f"{met} of {total} cells meet the goal")
    for path in incomplete:
        print(f"note: {path} is an incomplete run (interrupted): cases are missing")
    return 0 if total > 0 and met == total and not incomplete else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
