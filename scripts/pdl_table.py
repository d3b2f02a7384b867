#!/usr/bin/env python3
"""What PDL saves, as a Markdown table, from a `rope-kv-bench bench` report timed in the producer
modes (configs/pdl.json: --mode producer,producer_pdl).

usage: pdl_table.py REPORT.json (or .json.gz)

One row per (heads, cache, N); the columns are the median time (us per launch) the fused kernel
and the pair add after the producer, launched without PDL (mode `producer`) and with it
(`producer_pdl`), the floor under those with PDL (`producer_floor_us` of the producer_pdl row:
what a kernel that only waits for the producer adds; "-" in reports that predate it), the copy
floor with PDL (`producer_copy_floor_us`: a kernel that waits, then reads 512 bytes the producer
wrote and writes them elsewhere; "-" where absent), and the producer alone (the median of what the fused kernel's samples subtracted, from `producer` mode,
else from `producer_pdl`). The line above the table says what the producer did: only write q/k/v,
or first stream `timing.producer_read_mib` MiB of stand-in weights. An added time near zero or below it
means the variant's launch and prologue were hidden behind the producer (docs/methodology.md,
"What PDL saves: the producer modes"). A case that was not timed shows its validation result.

exit: 0 printed; 1 the report cannot be used (one line on stderr says why); 2 bad usage
"""
import gzip
import json
import sys
import zlib

MODES = ("producer", "producer_pdl")
COLUMNS = (("fused", "producer"), ("fused", "producer_pdl"),
           ("pair", "producer"), ("pair", "producer_pdl"))


class BadReport(Exception):
    pass


def need(obj, key, where):
    if not isinstance(obj, dict) or key not in obj:
        raise BadReport(f"{where}: missing key '{key}'")
    return obj[key]


def load(path):
    """The report, gzip-compressed or not (committed reports under results/ are; recognised by
    the magic bytes, as scripts/report_json.py does)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        return json.loads(data.decode("utf-8"))
    except OSError as e:
        raise BadReport(f"cannot read: {e.strerror}")
    except (gzip.BadGzipFile, EOFError, zlib.error) as e:
        raise BadReport(f"not a readable gzip file: {e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadReport(f"not JSON: {e}")


def number(x):
    return f"{x:.2f}" if isinstance(x, (int, float)) and not isinstance(x, bool) else "-"


def collect(report):
    """{(heads, cache, tokens): {mode: case}} of the producer-mode cases, in report order."""
    cases = need(report, "cases", "report")
    if not isinstance(cases, list):
        raise BadReport("cases: expected a list")
    rows, ids = {}, {}
    for i, c in enumerate(cases):
        where = f"cases[{i}]"
        mode = need(c, "mode", where)
        if mode not in MODES:
            continue
        spec = need(c, "spec", where)
        key = (need(spec, "heads", where + ".spec"), need(spec, "cache_dtype", where + ".spec"),
               need(spec, "tokens", where + ".spec"))
        case_id = need(c, "id", where)
        if ids.setdefault((key, mode), case_id) != case_id:
            raise BadReport(f"{where}: {case_id} and {ids[(key, mode)]} differ in more than heads, "
                            "cache and N; the table holds one case per (heads, cache, N)")
        rows.setdefault(key, {})[mode] = c
    if not rows:
        raise BadReport("no case timed in mode producer or producer_pdl "
                        "(bench --mode producer,producer_pdl)")
    return rows


def variant(case, name, where):
    variants = need(case, "variants", where)
    if not isinstance(variants, list):
        raise BadReport(f"{where}.variants: expected a list")
    for v in variants:
        if need(v, "variant", where + ".variants[]") == name:
            return v
    return None


def cell(case, name, where):
    if case is None:
        return "-"
    disposition = need(need(case, "validation", where), "disposition", where + ".validation")
    if disposition != "passed":
        return disposition
    v = variant(case, name, where)
    return "-" if v is None else number(need(v, "median_us", f"{where}.{name}"))


def floor_cell(modes, key):
    case = modes.get("producer_pdl")
    return "-" if case is None else number(case.get(key))


def producer_cell(modes):
    for mode in MODES:
        case = modes.get(mode)
        v = variant(case, "fused", mode) if case is not None else None
        if v is not None and isinstance(v.get("producer_us"), dict):
            return number(v["producer_us"].get("median_us"))
    return "-"


def producer_text(report):
    """What the producer did before q/k/v (timing.producer_read_mib; absent in reports from
    before the key: 0)."""
    timing = need(report, "timing", "report")
    mib = timing.get("producer_read_mib", 0) if isinstance(timing, dict) else None
    if not isinstance(mib, int) or isinstance(mib, bool) or mib < 0:
        raise BadReport("timing.producer_read_mib: expected a whole number of MiB, 0 or more")
    if mib == 0:
        return "The producer only wrote q/k/v."
    return (f"The producer first streamed {mib} MiB of stand-in weights from beyond L2, as a QKV "
            "projection reads its weights at decode, then wrote q/k/v.")


def table(report):
    rows = collect(report)
    header = ["heads", "cache", "N", "fused us", "fused us (PDL)", "pair us", "pair us (PDL)",
              "floor us (PDL)", "copy floor us (PDL)", "producer us"]
    out = ["| " + " | ".join(header) + " |",
           "| --- | --- | " + " | ".join(["---:"] * (len(header) - 2)) + " |"]
    for (heads, cache, tokens), modes in rows.items():
        cells = [heads, cache, str(tokens)]
        for name, mode in COLUMNS:
            cells.append(cell(modes.get(mode), name, f"{heads} {cache} N={tokens} {mode}"))
        cells.append(floor_cell(modes, "producer_floor_us"))
        cells.append(floor_cell(modes, "producer_copy_floor_us"))
        cells.append(producer_cell(modes))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: pdl_table.py REPORT.json", file=sys.stderr)
        return 2
    try:
        report = load(argv[1])
        producer = producer_text(report)
        text = table(report)
    except BadReport as e:
        print(f"pdl_table.py: error: report '{argv[1]}': {e}", file=sys.stderr)
        return 1
    except (TypeError, AttributeError, ValueError) as e:
        print(f"pdl_table.py: error: report '{argv[1]}': a key of an unexpected type ({e})",
              file=sys.stderr)
        return 1
    print("Time added after the producer, median us per launch (without / with PDL); the floor "
          "with PDL (a kernel that only waits for the producer), the copy floor with PDL (one "
          "that also reads 512 bytes the producer wrote and writes them) and the producer alone "
          f"for scale. {producer}\n")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
