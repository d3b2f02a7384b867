#!/usr/bin/env python3
"""scripts/ncu_key_table.py on ncu summaries: the canned one (tests/data/ncu-summary-canned.txt,
cut from two H200 profiles of `scripts/device_run.sh ncu`) and copies of it with fresh random
durations and byte counts, one of them with a second kernel in a profile (as the pair's). Each
row must come from the launch of median duration of its kernel; unreadable or shapeless input is
refused in one line."""
import csv
import io
import os
import random
import re
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "ncu_key_table.py")
CANNED = os.path.join(SOURCE, "tests", "data", "ncu-summary-canned.txt")
tmp = tempfile.mkdtemp()
rng = random.Random()

with open(CANNED) as f:
    canned = f.read()


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def table_rows(out):
    """The table's data rows as lists of cells."""
    return [[c.strip() for c in line.strip("|").split(" | ")]
            for line in out.splitlines()[2:] if line.startswith("|")]


# The canned summary: one row per profile, the kernel's name without 'void' and parameters.
code, out, err = run_script(SCRIPT, CANNED)
rows = table_rows(out)
check(code == 0 and len(rows) == 2, f"two profiles, two rows: {code} {out} {err}")
check(rows[0][0].startswith("fused\\|bf16\\|auto\\|40x8x80") and
      rows[0][1].startswith("rope_kv_fused_kernel<"), f"profile and kernel named: {rows[0]}")
check(rows[1][1].startswith("rope_inplace_kernel<"), f"second profile's kernel: {rows[1]}")

# Fresh durations and bytes per launch; a second kernel joins the first profile.
HEADER = None
expect = {}  # (profile index, kernel) -> (median duration ns, read, written)


def refill(block_index, block):
    """The block with random metrics in every launch row; records the median launch."""
    global HEADER
    lines = block.split("\n")
    out_lines, launches = [], []
    for line in lines:
        if line.startswith('"') and HEADER is None:
            HEADER = next(csv.reader(io.StringIO(line)))
        if line.startswith('"') and re.match(r'"\d+"', line):
            row = next(csv.reader(io.StringIO(line)))
            row[HEADER.index("gpu__time_duration.sum")] = f"{rng.randrange(100_000, 900_000):,}"
            row[HEADER.index("dram__bytes_read.sum")] = f"{rng.randrange(10**8, 10**9):,}"
            row[HEADER.index("dram__bytes_write.sum")] = f"{rng.randrange(10**8, 10**9):,}"
            launches.append(row)
            buf = io.StringIO()
            csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="").writerow(row)
            line = buf.getvalue()
        out_lines.append(line)
    if block_index == 0:  # a second kernel, as the pair's profiles have: three launches more
        at = max(i for i, line in enumerate(out_lines) if re.match(r'"\d+"', line)) + 1
        for k in range(3):
            row = list(launches[k])
            row[HEADER.index("Kernel Name")] = "void cache_write_kernel<__nv_bfloat16, 0, 8>(X)"
            row[HEADER.index("gpu__time_duration.sum")] = f"{rng.randrange(10_000, 90_000):,}"
            launches.append(row)
            buf = io.StringIO()
            csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="").writerow(row)
            out_lines.insert(at + k, buf.getvalue())
    by_kernel = {}
    for row in launches:
        name = row[HEADER.index("Kernel Name")].split("(")[0].removeprefix("void ")
        by_kernel.setdefault(name, []).append(row)
    for name, runs in by_kernel.items():
        def value(r, m):
            return float(r[HEADER.index(m)].replace(",", ""))
        runs.sort(key=lambda r: value(r, "gpu__time_duration.sum"))
        mid = runs[len(runs) // 2]
        expect[(block_index, name)] = tuple(value(mid, m) for m in (
            "gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"))
    return "\n".join(out_lines)


blocks = re.split(r"(?m)^(?=# )", canned)
fresh = "".join(refill(i, b) for i, b in enumerate(blocks[1:]))
code, out, err = run_script(SCRIPT, write("fresh.txt", fresh))
rows = table_rows(out)
check(code == 0 and len(rows) == 3, f"three kernels, three rows: {code} {out} {err}")
for row, key in zip(rows, expect):
    ns, read, written = expect[key]
    check(row[1] == key[1], f"row order follows the file: {row[1]} vs {key[1]}")
    check(row[2] == f"{ns / 1e3:.1f}", f"median launch's duration: {row} vs {ns}")
    check(row[3] == f"{read / 1e6:.0f}" and row[4] == f"{written / 1e6:.0f}", f"bytes: {row}")
    check(row[5] == f"{(read + written) / ns / 1e3:.2f}", f"TB/s from bytes and time: {row}")

# SM active %: without the two cycle metrics (the canned profiles) "-"; with them, the median
# launch's sm__cycles_active.avg over gpc__cycles_elapsed.max, whatever the other launches hold.
titles = [c.strip() for c in run_script(SCRIPT, CANNED)[1].splitlines()[0].strip("|").split(" | ")]
at_sm = titles.index("SM active %")
check(all(row[at_sm] == "-" for row in table_rows(run_script(SCRIPT, CANNED)[1])),
      "no cycle metrics: '-'")
with_cycles, want = [], []
for block in re.split(r"(?m)^(?=# )", canned)[1:]:
    lines, runs = block.split("\n"), []
    for i, line in enumerate(lines):
        if line.startswith('"ID"'):
            lines[i] = line + ',"sm__cycles_active.avg","gpc__cycles_elapsed.max"'
            lines[i + 1] += ',"cycle","cycle"'
        elif re.match(r'"\d+"', line):
            row = next(csv.reader(io.StringIO(line)))
            elapsed = rng.randrange(400_000, 1_800_000)
            active = elapsed * rng.uniform(0.85, 0.999)
            lines[i] = line + f',"{active:,.2f}","{elapsed:,}"'
            runs.append((float(row[HEADER.index("gpu__time_duration.sum")].replace(",", "")),
                         100 * active / elapsed))
    runs.sort()
    want.append(f"{runs[len(runs) // 2][1]:.1f}")
    with_cycles.append("\n".join(lines))
code, out, err = run_script(SCRIPT, write("cycles.txt", "".join(with_cycles)))
got = [row[at_sm] for row in table_rows(out)]
check(code == 0 and got == want, f"SM active % of the median launch: {got} vs {want} {err}")

# Refusals: one line on stderr, exit 2.
check('"413,728"' in canned, "the canned file holds the duration the next case spoils")
for name, text, why in [
    ("none.txt", "ncu printed nothing useful\n", "no profile"),
    ("nometrics.txt", "# fused|x: 3 launches\n## details\nnothing\n", "no key-metrics table"),
    ("nan.txt", canned.replace('"413,728"', '"fast"', 1), "not a number"),
]:
    code, out, err = run_script(SCRIPT, write(name, text))
    check(code == 2 and why in err and err.count("\n") == 1, f"{name}: {code} {err!r}")
code, out, err = run_script(SCRIPT, os.path.join(tmp, "missing.txt"))
check(code == 2 and "cannot be read" in err, f"a missing file: {code} {err!r}")
code, out, err = run_script(SCRIPT)
check(code == 2 and "SUMMARY" in err, f"no argument prints the usage: {code} {err!r}")
print("ncu_key_table: ok")
