#!/usr/bin/env python3
"""scripts/between_machine.py on synthetic reports (the formulas) and on the committed wave2 H200
reports (the numbers docs/ci.md quotes), and the perf gate's machine allowances against them: each
allowance the binary uses (decode, mid, large; read from `compare --json`'s rule) must be at least
2.5 x sqrt(2) x the fused spread of its token class and no more than 0.5 % above it, and the
rule's class edges must be the script's, so neither can drift from the other silently.

usage: between_machine_test.py SOURCE_DIR COMPARE_BINARY UNPACKED_DIR
  UNPACKED_DIR  where the build unpacks the reports the tree keeps gzipped (tests/CMakeLists.txt,
                RKV_PACKED_REPORTS): the binary reads plain JSON only
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR, BINARY, UNPACKED_DIR = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
import between_machine  # noqa: E402

WAVE2 = "results/h200/wave2/seed-table-run{}.json"


def committed(rel):
    """The committed report REL, or its copy the build unpacked where the tree keeps REL.gz."""
    path = os.path.join(SOURCE_DIR, rel)
    return path if os.path.exists(path) else os.path.join(UNPACKED_DIR, rel)


def synthetic(fused_us, speedups, tokens=1):
    """One passed case: fused passes all at `fused_us` (no within-run spread), the given speedups."""
    passes = [{"median_us": fused_us} for _ in speedups]
    return {"cases": [{"id": "c", "mode": "graph", "validation": {"disposition": "passed"},
                       "spec": {"tokens": tokens},
                       "variants": [{"variant": "fused", "median_us": fused_us,
                                     "passes": passes}],
                       "speedup": {"pass_medians": speedups}}]}


class Formulas(unittest.TestCase):
    def test_a_pure_shift_is_split_between_the_two_machines(self):
        with tempfile.TemporaryDirectory() as d:
            for name, us, sp in (("a", 2.0, [1.5, 1.5, 1.5]),
                                 ("b", 2.0 * math.exp(0.04), [1.5 * math.exp(0.02)] * 3)):
                with open(os.path.join(d, name + ".json"), "w") as f:
                    json.dump(synthetic(us, sp), f)
            r = between_machine.estimate(d, [("a.json", "b.json")])
        # d = 0.04 with no within-run variance: sigma^2 = d^2 / 2.
        self.assertAlmostEqual(r["fused"]["decode"]["sigma"], 0.04 / math.sqrt(2), places=12)
        self.assertAlmostEqual(r["speedup"]["decode"]["sigma"], 0.02 / math.sqrt(2), places=12)
        self.assertIsNone(r["fused"]["mid"]["sigma"])
        self.assertEqual(r["fused"]["decode"]["n"], 1)

    def test_a_gzip_compressed_report_reads_as_the_plain_one(self):
        # How large reports are committed under results/: the estimate must not change.
        import gzip
        with tempfile.TemporaryDirectory() as d:
            a, b = synthetic(2.0, [1.5, 1.6, 1.4]), synthetic(2.1, [1.45, 1.5, 1.55])
            for name, r in (("a.json", a), ("b.json", b)):
                with open(os.path.join(d, name), "w") as f:
                    json.dump(r, f)
            with gzip.open(os.path.join(d, "b.json.gz"), "wt") as f:
                json.dump(b, f)
            plain = between_machine.estimate(d, [("a.json", "b.json")])
            packed = between_machine.estimate(d, [("a.json", "b.json.gz")])
            self.assertEqual(plain["fused"], packed["fused"])
            self.assertEqual(plain["speedup"], packed["speedup"])
            with open(os.path.join(d, "broken.json.gz"), "wb") as f:
                f.write(gzip.compress(b"{}")[:12])
            with self.assertRaises(between_machine.InputError):
                between_machine.estimate(d, [("a.json", "broken.json.gz")])

    def test_within_run_noise_larger_than_the_shift_gives_zero(self):
        with tempfile.TemporaryDirectory() as d:
            a = synthetic(2.0, [1.5, 1.6, 1.4])
            a["cases"][0]["variants"][0]["passes"] = [{"median_us": x} for x in (1.8, 2.0, 2.2)]
            with open(os.path.join(d, "a.json"), "w") as f:
                json.dump(a, f)
            with open(os.path.join(d, "b.json"), "w") as f:
                json.dump(synthetic(2.0 * 1.001, [1.5, 1.6, 1.4]), f)
            r = between_machine.estimate(d, [("a.json", "b.json")])
        self.assertEqual(r["fused"]["decode"]["sigma"], 0.0)
        self.assertEqual(r["speedup"]["decode"]["sigma"], 0.0)

    def test_token_classes(self):
        self.assertEqual([between_machine.token_class(n) for n in (1, 8, 9, 1024, 1025)],
                         ["decode", "decode", "mid", "mid", "large"])


class CommittedReports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "spread.json")
            run = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "scripts",
                                                               "between_machine.py"),
                                  "--root", SOURCE_DIR, "--json", out],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            cls.text = run.stdout
            with open(out) as f:
                cls.spread = json.load(f)
            verdict = os.path.join(d, "verdict.json")
            run = subprocess.run([BINARY, "compare", committed(WAVE2.format(1)),
                                  committed(WAVE2.format(2)), "--json", verdict],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stdout + run.stderr
            with open(verdict) as f:
                cls.rule = json.load(f)["rule"]

    def test_the_numbers_docs_ci_quotes(self):
        for table, expected in (("fused", (2.22, 1.47, 0.49)), ("speedup", (2.01, 1.06, 0.15))):
            for cls_name, pct in zip(between_machine.CLASSES, expected):
                got = 100 * self.spread[table][cls_name]["sigma"]
                self.assertAlmostEqual(got, pct, delta=0.005, msg=f"{table} {cls_name}")
        self.assertIn("fused own time:", self.text)

    def test_each_machine_allowance_follows_the_data(self):
        # The committed wave2 reports carry no GPU uuid: the allowance applies to them.
        self.assertTrue(self.rule["machine_allowance_applies"])
        self.assertEqual(self.rule["machine_allowance"], "auto")
        for cls_name in between_machine.CLASSES:
            sigma = self.spread["fused"][cls_name]["sigma"]
            needed_pct = 100 * 2.5 * math.sqrt(2) * sigma
            allowance_pct = self.rule["machine_allowance_pct"][cls_name]
            self.assertGreaterEqual(allowance_pct, needed_pct, cls_name)
            self.assertLessEqual(allowance_pct - needed_pct, 0.5, cls_name)
            self.assertEqual(round(allowance_pct * 2), allowance_pct * 2, cls_name)  # 0.5 % steps

    def test_the_rule_classes_are_the_scripts(self):
        decode, mid = self.rule["decode_max_tokens"], self.rule["mid_max_tokens"]
        self.assertEqual(between_machine.token_class(decode), "decode")
        self.assertEqual(between_machine.token_class(decode + 1), "mid")
        self.assertEqual(between_machine.token_class(mid), "mid")
        self.assertEqual(between_machine.token_class(mid + 1), "large")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
