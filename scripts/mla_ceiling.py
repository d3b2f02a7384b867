#!/usr/bin/env python3
"""The ceiling of MLA cases' bytes at a floor report's copy rates (docs/methodology.md, "A shape's
own ceiling: floor"), beside what the fused kernel reached.

    scripts/mla_ceiling.py FLOOR_REPORT BENCH_REPORT

FLOOR_REPORT: `rope-kv-bench floor --in-place` with the q span pattern of each case (128/384 for
16-bit q at full rotary: 64 rope dims of a 192-wide head) and at least one contiguous pattern.
BENCH_REPORT: a bench report with MLA cases (heads mla:N, q rotated in place). A case's q bytes
(read and written: 2 x tokens x q heads x rot dims x element bytes) take the span pattern's rate,
the rest of its min_bytes (kv rows, cache, positions, slots, the cos/sin rows) the fastest
contiguous pattern's; the ceiling is min_bytes over that time, as a percentage of the bench
report's own copy bandwidth, the yardstick of its fused_pct_of_bandwidth. Prints one line a case:
fused %, ceiling %, and the fused kernel's share of its ceiling. Other cases are skipped, and
said so. Exit 0; 2 (one line on stderr) when a report cannot be read, is not the kind asked, or
lacks a case's pattern.
"""
import sys

from report_json import fail_input, load_json_or_fail, load_report

PROG = "mla_ceiling"
MLA_Q_HEAD = 192  # elements: 128 nope + 64 rope dims
MLA_ROPE = 64
ELEMENT_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4}


def load_floor(path):
    floor = load_json_or_fail(PROG, path)
    if not isinstance(floor, dict) or floor.get("command") != "floor":
        fail_input(PROG, path, "not a rope-kv-bench floor report")
    if not floor.get("in_place"):
        fail_input(PROG, path, "not an --in-place floor report (the rotation writes q in place)")
    rates = {p["pattern"]: p["gbps"] for p in floor.get("patterns", [])}
    whole = [p["gbps"] for p in floor.get("patterns", []) if p["span_bytes"] == p["row_bytes"]]
    if not whole:
        fail_input(PROG, path, "no contiguous pattern (SPAN = ROW) to rate the kv rows by")
    return rates, max(whole)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    rates, whole_gbps = load_floor(argv[1])
    bench = load_report(PROG, argv[2])
    copy = bench.get("device", {}).get("copy_bandwidth_gbps")
    if not copy:
        fail_input(PROG, argv[2], "no device.copy_bandwidth_gbps")
    for c in bench["cases"]:
        spec = c.get("spec", {})
        heads = str(spec.get("heads", ""))
        if not heads.startswith("mla:") or spec.get("query_out") != "inplace":
            print(f"{c.get('id')}: skipped (not MLA with q rotated in place)")
            continue
        if c.get("fused_pct_of_bandwidth") is None or not c.get("min_bytes"):
            print(f"{c.get('id')}: skipped (no fused bandwidth)")
            continue
        e = ELEMENT_BYTES[spec["dtype"]]
        rot = spec.get("rot_dim") or MLA_ROPE
        pattern = f"{rot * e}/{MLA_Q_HEAD * e}"
        if pattern not in rates:
            fail_input(PROG, argv[1], f"no {pattern} pattern for {c['id']}")
        q = 2 * spec["tokens"] * int(heads[4:]) * rot * e
        seconds = q / rates[pattern] + (c["min_bytes"] - q) / whole_gbps
        ceiling = 100.0 * c["min_bytes"] / seconds / copy
        fused = c["fused_pct_of_bandwidth"]
        print(f"{c['id']:44s} fused {fused:5.1f} %  ceiling {ceiling:5.1f} %  "
              f"fused/ceiling {100.0 * fused / ceiling:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
