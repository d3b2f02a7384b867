#!/usr/bin/env python3
"""The dashboard in a real browser: headless Chromium loads the generated page from file://.

Usage: dashboard_browser_test.py ROPE_KV_BENCH SAMPLE_DIR WORK_DIR

Builds a history from the sample reports, writes the dashboard, and has Chromium render it:
- no script error (the page's window.onerror writes #js-error) and no console message in
  Chromium's log;
- one trend chart per (case, timing mode) in the database;
- every number in the latest-results tables equals the database's value for the latest run of
  that case, and is shown rounded from it; the runs table's validation counts equal the
  database's;
- a screenshot is saved (WORK_DIR/dashboard.png).
Self-tests: a page with a planted script error, and a DOM with a planted wrong number, must fail.
Exits 77 (CTest: skipped) saying why when no Chromium is installed or it cannot start here.
"""
import html.parser
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess
import sys

SKIP = 77


def find_chromium():
    for name in (os.environ.get("RKV_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def chromium_args(browser, *extra):
    # --no-sandbox: Chromium refuses to run as root (CI containers) with its sandbox on.
    return [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
            "--virtual-time-budget=3000", *extra]


def render(browser, page):
    r = subprocess.run(chromium_args(browser, "--dump-dom", page.resolve().as_uri()),
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


class Dom(html.parser.HTMLParser):
    """Collects what the checks need: charts, #js-error, and the table cells with their classes."""

    def __init__(self):
        super().__init__()
        self.charts, self.js_error, self.rows, self.run_cells = [], False, [], []
        self._row, self._cell = None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "trend-chart" in a.get("class", ""):
            self.charts.append((a.get("data-case"), a.get("data-mode")))
        if a.get("id") == "js-error":
            self.js_error = True
        if tag == "tr" and "data-case" in a:
            self._row = {"case": a["data-case"], "run": int(a["data-run"]), "cells": {}}
            self.rows.append(self._row)
        if tag == "td" and "validation" in a.get("class", "").split() and "data-passed" in a:
            self.run_cells.append((int(a["data-passed"]), int(a["data-cases"])))
        if tag == "td" and self._row is not None and "data-value" in a:
            self._cell = a["class"]
            self._row["cells"][self._cell] = [float(a["data-value"]), ""]

    def handle_data(self, data):
        if self._cell:
            self._row["cells"][self._cell][1] += data

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None
        if tag == "table":
            self._row = None


def shown(cls, value):
    if cls == "speedup":
        return f"{value:.2f}x"
    if cls == "pct-bw":
        return f"{value:.0f}%"
    return f"{value:.1f}" if value >= 100 else f"{value:.2f}"


def check_page(dom_text, log, db):
    """The problems found, as lines."""
    problems = []
    dom = Dom()
    dom.feed(dom_text)
    if dom.js_error:
        problems.append("the page reported a script error (#js-error)")
    for line in log.splitlines():
        if "CONSOLE" in line or "Uncaught" in line:
            problems.append("browser log: " + line.strip())
    with sqlite3.connect(db) as c:
        series = c.execute("SELECT DISTINCT case_id, mode FROM cases WHERE mode != ''").fetchall()
        order = ("COALESCE(NULLIF(r.git_commit_time_utc, ''), r.created_utc), r.created_utc, "
                 "r.run_id")
        latest = {}
        for row in c.execute(
                "SELECT c.case_id, c.mode, c.run_id, c.speedup, c.fused_median_us, "
                "c.pair_median_us, c.fused_pct_of_bandwidth FROM cases c JOIN runs r "
                f"ON r.run_id = c.run_id WHERE c.mode != '' ORDER BY {order}"):
            latest[(row[0], row[1])] = row[2:]
        runs = c.execute(
            "SELECT coalesce(sum(c.disposition = 'passed'), 0), count(c.case_id) FROM runs r "
            f"LEFT JOIN cases c ON c.run_id = r.run_id GROUP BY r.run_id ORDER BY {order}"
        ).fetchall()
    if sorted(dom.charts) != sorted(series):
        problems.append(f"{len(dom.charts)} charts for {len(series)} (case, mode) series")
    if len(dom.rows) != len(latest):
        problems.append(f"{len(dom.rows)} latest-result rows for {len(latest)} series")
    by_case = {}
    for (case, mode), values in latest.items():
        by_case.setdefault(case, []).append((mode, values))
    for row in dom.rows:
        candidates = [v for _, v in by_case.get(row["case"], []) if v[0] == row["run"]]
        if not candidates:
            problems.append(f"row {row['case']} shows run {row['run']}, not the latest")
            continue
        _, speedup, fused, pair, pct = candidates[0]
        for cls, want in (("speedup", speedup), ("fused-us", fused), ("pair-us", pair),
                          ("pct-bw", pct)):
            got = row["cells"].get(cls)
            if want is None:
                if got is not None:
                    problems.append(f"{row['case']} {cls}: shows {got} where the database has none")
                continue
            if got is None or got[0] != want:
                problems.append(f"{row['case']} {cls}: page {got}, database {want}")
            elif got[1].strip() != shown(cls, want):
                problems.append(f"{row['case']} {cls}: shows {got[1]!r} for {want}")
    if dom.run_cells != [tuple(r) for r in runs]:
        problems.append(f"runs table validation counts {dom.run_cells} != database {runs}")
    return problems


def main(binary, sample_dir, work):
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db, site = work / "history.sqlite", work / "site"
    reports = sorted(pathlib.Path(sample_dir).glob("*.json"))
    for args in (["history", "add", "--db", db, *reports], ["dashboard", "--db", db, "--out", site]):
        r = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: {' '.join(map(str, args[:2]))}: {r.stderr}")
            return 1
    page = site / "index.html"

    browser = find_chromium()
    if not browser:
        print("SKIP: no Chromium found (chromium, chromium-browser, google-chrome or "
              "$RKV_CHROMIUM); scripts/install-deps.sh installs Debian's chromium")
        return SKIP
    rc, dom_text, log = render(browser, page)
    if rc != 0 or "<html" not in dom_text:
        print(f"SKIP: {browser} cannot run headless here (exit {rc}): "
              f"{(log.strip().splitlines() or ['no output'])[-1][:300]}")
        return SKIP

    problems = check_page(dom_text, log, db)

    # Self-tests: the checks must catch a script error and a wrong number.
    broken = site / "broken.html"
    broken.write_text(page.read_text().replace("</body>", "<script>noSuchFunction();</script></body>"))
    _, broken_dom, broken_log = render(browser, broken)
    if not any("script error" in p or "Uncaught" in p for p in check_page(broken_dom, broken_log, db)):
        problems.append("self-test: a planted script error went unnoticed")
    wrong = re.sub(r'(class="speedup" data-value=")[^"]*', r"\g<1>9.75", dom_text, count=1)
    if not check_page(wrong, "", db):
        problems.append("self-test: a planted wrong number went unnoticed")

    shot = work / "dashboard.png"
    r = subprocess.run(chromium_args(browser, f"--screenshot={shot}", "--window-size=1400,1600",
                                     page.resolve().as_uri()),
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not shot.exists() or shot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        problems.append(f"no screenshot written: {r.stderr.strip()[-300:]}")

    for p in problems:
        print("FAIL:", p)
    print(f"dashboard_browser_test: {len(problems)} problems; screenshot {shot}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
