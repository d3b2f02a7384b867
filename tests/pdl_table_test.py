#!/usr/bin/env python3
"""scripts/pdl_table.py on a producer-mode report written by the real report writer
(pdl_report_test.cpp): one row per (heads, cache, N) with the added times without and with PDL and
the producer alone; and on bad reports, exit 1 with one line on stderr.

usage: pdl_table_test.py PDL_TABLE_PY REPORT.json
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile


def run(script, path):
    p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(ok, what):
    if not ok:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)


def main(script, report_path):
    rc, out, err = run(script, report_path)
    check(rc == 0, f"exit {rc} on the good report: {err}")
    good_table = out.split("\n\n", 1)[1]
    rows = [l for l in out.splitlines()
            if l.startswith("| ") and not l.startswith(("| heads", "| ---"))]
    check(len(rows) == 4, f"expected 4 rows, got {len(rows)}:\n{out}")
    # The N=1 GQA auto-cache row of pdl_report_test.cpp: fused 1.30 / -0.02, pair 2.60 / 1.10,
    # the floor with PDL 0.95 (the median of its passes' 0.93, 1.00, 0.95), producer about 2.11
    # (its samples carry 2.10, 2.11, 2.12).
    first = [c.strip() for c in rows[0].strip("|").split("|")]
    check(first[:3] == ["32x8x128", "auto", "1"], f"first row labels: {first}")
    check(first[3:7] == ["1.30", "-0.02", "2.60", "1.10"], f"first row added times: {first}")
    check(first[7] == "0.95", f"first row floor with PDL: {first}")
    check(first[8] == "1.17", f"first row copy floor with PDL (median of 1.19, 1.13, 1.17): {first}")
    check(first[9] == "2.11", f"first row producer: {first}")
    # The same report gzip-compressed (as committed under results/): the same table.
    gz = os.path.join(tempfile.mkdtemp(), "pdl.json.gz")
    with open(report_path, "rb") as f, gzip.open(gz, "wb") as g:
        g.write(f.read())
    rc_gz, out_gz, err_gz = run(script, gz)
    check(rc_gz == 0 and out_gz == out, f"the gzip-compressed report: exit {rc_gz} {err_gz}")
    with open(gz, "r+b") as f:  # a gzip member cut short: one line, exit 1
        f.truncate(20)
    rc_bad, _, err_bad = run(script, gz)
    check(rc_bad == 1 and len(err_bad.strip().splitlines()) == 1 and "gzip" in err_bad,
          f"a truncated gzip report: exit {rc_bad} {err_bad}")

    report = json.load(open(report_path))
    with tempfile.TemporaryDirectory() as d:
        def bad(name, text, expect):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = run(script, path)
            lines = err.strip().splitlines()
            check(rc == 1, f"{name}: exit {rc}, expected 1")
            check(len(lines) == 1 and expect in lines[0], f"{name}: stderr {err!r}")

        bad("not-json.json", "{", "not JSON")
        graph_only = json.loads(json.dumps(report))
        for c in graph_only["cases"]:
            c["mode"] = "graph"
        bad("graph.json", json.dumps(graph_only), "no case timed in mode producer")
        no_cases = dict(report)
        del no_cases["cases"]
        bad("no-cases.json", json.dumps(no_cases), "missing key 'cases'")
        odd = json.loads(json.dumps(report))
        odd["cases"][0]["variants"] = 7
        bad("odd.json", json.dumps(odd), "variants")
        # A report from before producer_floor_us and producer_read_mib: the floor columns say "-",
        # the producer only wrote, the rest as before.
        old = json.loads(json.dumps(report))
        old["timing"].pop("producer_read_mib", None)  # nor the producer's read
        for c in old["cases"]:
            c.pop("producer_floor_us", None)
            c.pop("producer_copy_floor_us", None)
        path = os.path.join(d, "old.json")
        with open(path, "w") as f:
            f.write(json.dumps(old))
        rc, out, err = run(script, path)
        check(rc == 0, f"old report: exit {rc}: {err}")
        row = [l for l in out.splitlines() if l.startswith("| 32x8x128 | auto | 1 ")][0]
        old_first = [c.strip() for c in row.strip("|").split("|")]
        check(old_first[3:10] == first[3:7] + ["-", "-", "2.11"], f"old report row: {old_first}")
        check("The producer only wrote q/k/v." in out, f"old report's producer line: {out}")
        # A producer that streamed weights says so above the table; a read that is not a whole
        # number of MiB is a bad report.
        for mib, expect in ((96, "first streamed 96 MiB of stand-in weights"),
                            (0, "The producer only wrote q/k/v.")):
            weights = json.loads(json.dumps(report))
            weights["timing"]["producer_read_mib"] = mib
            path = os.path.join(d, f"weights-{mib}.json")
            with open(path, "w") as f:
                f.write(json.dumps(weights))
            rc, out_w, err = run(script, path)
            check(rc == 0 and expect in out_w.splitlines()[0], f"{mib} MiB: exit {rc} {out_w}")
            check(out_w.split("\n\n", 1)[1] == good_table,
                  f"{mib} MiB: the table itself changed:\n{out_w}")
        for value in ("lots", -3, 1.5):
            weights = json.loads(json.dumps(report))
            weights["timing"]["producer_read_mib"] = value
            bad(f"weights-{value}.json", json.dumps(weights), "timing.producer_read_mib")
    rc, _, err = run(script, os.path.join(tempfile.gettempdir(), "no-such-report-pdl.json"))
    check(rc == 1 and "cannot read" in err, f"missing file: exit {rc} {err!r}")
    print("pdl_table: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
