#!/usr/bin/env python3
"""`rope-kv-bench history` end to end, as CI jobs run it.

Usage: history_cli_test.py ROPE_KV_BENCH SAMPLE_DIR WORK_DIR

- Concurrent adders lose nothing: 8 processes add overlapping sets of 24 distinct reports to one
  new database at once; afterwards it holds exactly 24 runs and all their cases.
- Adding a report again changes nothing (the export is byte-identical).
- A text file, another program's SQLite database, a damaged history and a history of a newer
  format each get one line and exit 4, never a crash; so does a report the schema refuses, and
  the database is left as it was.
- `history show` prints the trend with compare's verdicts; `history list` the runs.
"""
import json
import pathlib
import shutil
import sqlite3
import subprocess
import sys

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(binary, *args):
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True)


def one_line_refusal(result, needle, what):
    lines = result.stderr.strip().splitlines()
    check(result.returncode == 4, f"{what}: exit {result.returncode}, expected 4 ({result.stderr!r})")
    check(len(lines) == 1, f"{what}: {len(lines)} lines on stderr: {result.stderr!r}")
    check(needle in result.stderr, f"{what}: {needle!r} not in {result.stderr!r}")


def export(binary, db):
    r = run(binary, "history", "export", "--json", "--db", db)
    check(r.returncode == 0, f"export failed: {r.stderr}")
    return r.stdout


def main(binary, sample_dir, work):
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    samples = sorted(pathlib.Path(sample_dir).glob("series-*.json"))
    check(len(samples) == 4, f"expected 4 series samples in {sample_dir}")

    # 24 distinct reports: the samples under six more run times (a new time is a new report).
    reports = []
    for k in range(6):
        for s in samples:
            doc = json.loads(s.read_text())
            doc["created_utc"] = doc["created_utc"].replace("T11:", f"T{12 + k}:")
            path = work / f"{s.stem}-{k}.json"
            path.write_text(json.dumps(doc))
            reports.append(path)
    expected_cases = sum(len(json.loads(p.read_text())["cases"]) for p in reports)

    db = work / "concurrent.sqlite"
    procs = []
    for i in range(8):  # each adds 9 reports; every report is added by three processes
        mine = [reports[(3 * i + j) % len(reports)] for j in range(9)]
        procs.append(subprocess.Popen([binary, "history", "add", "--db", db, *mine],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, err = p.communicate(timeout=120)
        check(p.returncode == 0, f"concurrent add exit {p.returncode}: {err.strip()}")
    with sqlite3.connect(db) as c:
        runs = c.execute("SELECT count(*) FROM runs").fetchone()[0]
        cases = c.execute("SELECT count(*) FROM cases").fetchone()[0]
        mode = c.execute("PRAGMA journal_mode").fetchone()[0]
    check(runs == len(reports), f"{runs} runs after concurrent adds, expected {len(reports)}")
    check(cases == expected_cases, f"{cases} cases after concurrent adds, expected {expected_cases}")
    check(mode == "wal", f"journal_mode is {mode}, expected wal")

    before = export(binary, db)
    again = run(binary, "history", "add", "--db", db, reports[0], reports[5])
    check(again.returncode == 0 and again.stdout.count("nothing changed") == 2,
          f"re-adding: {again.stdout!r}")
    check(export(binary, db) == before, "re-adding reports changed the history")

    # A report the schema refuses is refused before the database is touched.
    bad = json.loads(samples[0].read_text())
    bad["cases"][0]["spec"]["tokens"] = 0
    bad_path = work / "bad.json"
    bad_path.write_text(json.dumps(bad))
    one_line_refusal(run(binary, "history", "add", "--db", db, reports[1], bad_path),
                     "cases[0].spec: not a case that can run: tokens must be at least 1",
                     "schema-invalid report")
    check(export(binary, db) == before, "a refused add changed the history")

    show = run(binary, "history", "show", "--db", db, "--mode", "graph", "--case",
               json.loads(samples[0].read_text())["cases"][1]["id"])
    check(show.returncode == 0 and "regression" in show.stdout and "win" in show.stdout,
          f"history show: {show.stdout[:400]!r} {show.stderr!r}")
    listing = run(binary, "history", "list", "--db", db)
    check(listing.returncode == 0 and f"{len(reports)} runs" in listing.stdout,
          f"history list: {listing.stdout[-200:]!r}")
    one_line_refusal(run(binary, "history", "show", "--db", db, "--case", "no|such|case"),
                     "not in the history", "unknown case")

    # Files that are not a history.
    text = work / "notes.sqlite"
    text.write_text("not a database, just some words that fill a page " * 100)
    one_line_refusal(run(binary, "history", "list", "--db", text), "not an SQLite database",
                     "text file (list)")
    one_line_refusal(run(binary, "history", "add", "--db", text, reports[0]),
                     "not an SQLite database", "text file (add)")
    check(text.read_text().startswith("not a database"), "add wrote into a text file")

    foreign = work / "foreign.sqlite"
    with sqlite3.connect(foreign) as c:
        c.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    for cmd in (["list"], ["add", reports[0]]):
        one_line_refusal(run(binary, "history", *cmd, "--db", foreign),
                         "not a rope-kv-bench history", f"foreign database ({cmd[0]})")
    with sqlite3.connect(foreign) as c:
        check(c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 1,
              "add touched a foreign database")

    newer = work / "newer.sqlite"
    shutil.copy(db, newer)
    with sqlite3.connect(newer) as c:
        c.execute("PRAGMA user_version = 99")
    one_line_refusal(run(binary, "history", "list", "--db", newer), "newer", "newer format")

    damaged = work / "damaged.sqlite"
    with sqlite3.connect(db) as c:  # a self-contained copy (WAL folded in)
        c.execute(f"VACUUM INTO '{damaged}'")
    data = bytearray(damaged.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for i in range(page, len(data)):  # every page but the header page
        data[i] = (i * 131) & 0xFF
    damaged.write_bytes(bytes(data))
    for cmd in (["list"], ["export", "--json"], ["show", "--case", "x"]):
        r = run(binary, "history", *cmd, "--db", damaged)
        one_line_refusal(r, "damaged", f"damaged database ({cmd[0]})")
    r = run(binary, "dashboard", "--db", damaged, "--out", work / "dash")
    one_line_refusal(r, "damaged", "damaged database (dashboard)")

    one_line_refusal(run(binary, "history", "list", "--db", work / "missing.sqlite"),
                     "no such file", "missing database")
    version = run(binary, "--version")
    check(version.returncode == 0 and version.stdout.startswith("rope-kv-bench 0.2.0"),
          f"--version: {version.stdout!r} {version.stderr!r}")

    print(f"history_cli_test: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
