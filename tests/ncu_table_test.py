#!/usr/bin/env python3
"""Tests scripts/ncu_table.py on a canned ncu CSV (tests/data/ncu-canned.csv: the shape ncu --csv
writes, cut from a real H200 profile, with the program's own output lines in front)."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import ncu_table  # noqa: E402

with open(os.path.join(HERE, "data", "ncu-canned.csv")) as f:
    CANNED = f.read()


def report(median_us):
    return {"device": {"name": "NVIDIA H200"}, "git_revision": "abc",
            "cases": [{"spec": {"heads": "32x32x128", "tokens": 1}, "mode": "cold",
                       "variants": [{"variant": "pair", "median_us": 9.0},
                                    {"variant": "fused", "median_us": median_us}]}]}


class NcuTable(unittest.TestCase):
    def test_durations_skip_program_output_and_read_thousands_separators(self):
        got = ncu_table.ncu_durations_us(CANNED)
        self.assertEqual(len(got), 4)  # four launches; the sm__cycles rows are not durations
        for a, b in zip(got, [3.712, 3.680, 3.744, 3.680]):
            self.assertAlmostEqual(a, b, places=9)

    def test_units_are_converted(self):
        text = CANNED.replace('"ns","3,712"', '"usecond","1,234.5"')
        self.assertAlmostEqual(ncu_table.ncu_durations_us(text)[0], 1234.5)
        with self.assertRaises(ncu_table.InputError):
            ncu_table.ncu_durations_us(CANNED.replace('"ns"', '"furlong"'))

    def test_no_header_or_no_rows_is_an_error(self):
        with self.assertRaises(ncu_table.InputError):
            ncu_table.ncu_durations_us("profiled nothing\n")
        header_only = "\n".join(l for l in CANNED.splitlines() if not l.startswith('"0"') and
                                not l.startswith('"1"') and not l.startswith('"2"') and
                                not l.startswith('"3"'))
        with self.assertRaises(ncu_table.InputError):
            ncu_table.ncu_durations_us(header_only)

    def test_rows_pair_the_tool_with_the_median_of_ncu(self):
        rows = ncu_table.build_rows(report(3.8), {"ncu-cold-32x32x128-N1.csv": CANNED,
                                                  "ncu-warm-32x32x128-N1.csv": CANNED,
                                                  "unrelated.csv": "x"})
        self.assertEqual(len(rows), 2)
        cold = rows[0]
        self.assertEqual((cold["mode"], cold["heads"], cold["tokens"]), ("cold", "32x32x128", 1))
        self.assertAlmostEqual(cold["ncu_us"], 3.696)
        self.assertAlmostEqual(cold["diff_pct"], 100 * (3.8 - 3.696) / 3.696)
        self.assertIsNone(rows[1]["tool_us"])  # the report has no warm row: shown as '-'

    def test_main_writes_markdown_and_json(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "ncu"))
            with open(os.path.join(d, "ncu", "ncu-cold-32x32x128-N1.csv"), "w") as f:
                f.write(CANNED)
            with open(os.path.join(d, "r.json"), "w") as f:
                json.dump(report(3.8), f)
            md, js = os.path.join(d, "t.md"), os.path.join(d, "t.json")
            rc = ncu_table.main([os.path.join(d, "r.json"), os.path.join(d, "ncu"), md, js])
            self.assertEqual(rc, 0)
            with open(md) as f:
                self.assertIn("| cold | 32x32x128 | 1 | 3.80 | 3.70 | +2.8 |", f.read())
            with open(js) as f:
                self.assertEqual(json.load(f)["rows"][0]["ncu_launches"], 4)
            self.assertEqual(ncu_table.main([os.path.join(d, "missing.json"),
                                             os.path.join(d, "ncu"), md, js]), 1)


if __name__ == "__main__":
    unittest.main()
