#!/usr/bin/env python3
"""Per pass, each variant's median and the buffers it wrote: does a time follow placement?

    scripts/placement_table.py REPORT [--filter TEXT] [--variants fused,pair,cache_write]

For every case (id containing TEXT) of a `bench --samples` report, one line per pass: the pass,
then per variant its median in that pass, the output slot it wrote (a or b) and that slot's qkv
and k_cache addresses (hex, from cases[].buffer_addresses). A variant that is slower in every pass
where it writes one slot, and that slot's addresses, are what the fp8 decode slow modes need
(results/NOTES.md). Ends with, per case and variant, the median of its slot-a passes against its
slot-b passes.

Exit 0; 2 (one line on stderr) when the report cannot be read, is not a rope-kv-bench report, or
was made without --samples (no buffer addresses).
"""
import argparse
import statistics
import sys

from report_json import fail_input, load_report


def load(path):
    cases = load_report("placement_table", path)["cases"]
    if not any(c.get("buffer_addresses") for c in cases):
        fail_input("placement_table", path, "no buffer addresses (made without bench --samples?)")
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("--filter", default="", help="keep the cases whose id contains this text")
    ap.add_argument("--variants", default="fused,pair,cache_write",
                    help="comma-separated variants (default fused,pair,cache_write)")
    args = ap.parse_args()
    wanted = [v for v in args.variants.split(",") if v]
    for case in load(args.report):
        if args.filter not in case.get("id", "") or not case.get("buffer_addresses"):
            continue
        addresses = case["buffer_addresses"]
        variants = {v.get("variant"): v for v in case.get("variants") or []}
        shown = [v for v in wanted if v in variants and variants[v].get("passes")]
        print(f"{case['id']} ({case.get('mode')})")
        print("  pass " + "".join(f"| {v:>11s} us slot  qkv            k_cache        " for v in shown))
        by_slot = {v: {"a": [], "b": []} for v in shown}
        for p, where in enumerate(addresses):
            cells = []
            for v in shown:
                var = variants[v]
                passes, slots = var["passes"], var.get("output_slots") or []
                if p >= len(passes) or p >= len(slots):
                    cells.append(f"| {'-':>14s}" + " " * 36)
                    continue
                us, slot = passes[p]["median_us"], slots[p]
                by_slot[v][slot].append(us)
                cells.append(f"| {us:14.2f} {slot:>4s}  {where.get('qkv_' + slot, '-'):<14s} "
                             f"{where.get('k_cache_' + slot, '-'):<14s} ")
            print(f"  {p + 1:>4d} " + "".join(cells))
        for v in shown:
            a, b = by_slot[v]["a"], by_slot[v]["b"]
            if a and b:
                ma, mb = statistics.median(a), statistics.median(b)
                print(f"  {v}: slot a {ma:.2f} us ({len(a)} passes), slot b {mb:.2f} us "
                      f"({len(b)} passes), a/b {ma / mb:.3f}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
