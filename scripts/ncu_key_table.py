#!/usr/bin/env python3
"""One line per profiled kernel from the summaries of `scripts/device_run.sh ncu`.

    scripts/ncu_key_table.py SUMMARY.txt [SUMMARY.txt ...]

Each SUMMARY is an ncu-summary.txt: the text files of `scripts/ncu.sh` one after another, each
opening with "# VARIANT|CASE-ID: N launches, ..." and holding the key-metrics CSV (ncu --page raw
--csv --print-units base). Prints a Markdown table, one row per profile and kernel, from the
launch of median duration (ncu replays every launch, so the launches of one kernel differ only
by noise): duration (us), DRAM bytes read and written (MB), what those make per second (TB/s),
memory throughput (% of peak), L2 hit rate, warps active (% of peak), SM active (the SMs' mean
active cycles over the elapsed cycles: below ~97 % the SMs finish unevenly, as session 20 found on
the one-wave strided grids; "-" in profiles without those metrics), grid and registers. Comparing
two builds or two cases is then a matter of reading rows, not 700-line pages.
Exit 2 with one line on stderr when a file cannot be read or holds no profile.
"""
import csv
import io
import re
import signal
import sys

from report_json import fail_input

NAME = "ncu_key_table"
COLUMNS = {  # metric -> (column title, format)
    "gpu__time_duration.sum": ("us", lambda v: f"{v / 1e3:.1f}"),
    "dram__bytes_read.sum": ("read MB", lambda v: f"{v / 1e6:.0f}"),
    "dram__bytes_write.sum": ("written MB", lambda v: f"{v / 1e6:.0f}"),
    # ncu's "Memory Throughput": the busiest of DRAM, L2 and L1 (DRAM in every profile so far).
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed":
        ("memory %", lambda v: f"{v:.1f}"),
    "lts__t_sector_hit_rate.pct": ("L2 hit %", lambda v: f"{v:.1f}"),
    "sm__warps_active.avg.pct_of_peak_sustained_active": ("warps %", lambda v: f"{v:.1f}"),
    "launch__grid_size": ("grid", lambda v: f"{v:.0f}"),
    "launch__registers_per_thread": ("regs", lambda v: f"{v:.0f}"),
}
DURATION = "gpu__time_duration.sum"
SM_ACTIVE, ELAPSED = "sm__cycles_active.avg", "gpc__cycles_elapsed.max"  # SpeedOfLight's pair
READ = list(COLUMNS) + [SM_ACTIVE, ELAPSED]
SM_COLUMN = list(COLUMNS).index("sm__warps_active.avg.pct_of_peak_sustained_active") + 1


def sm_active_pct(v):
    """The SMs' mean active cycles as % of the elapsed cycles, or "-" without both metrics."""
    if v.get(ELAPSED, 0) > 0 and SM_ACTIVE in v:
        return f"{100 * v[SM_ACTIVE] / v[ELAPSED]:.1f}"
    return "-"


def number(text):
    return float(text.replace(",", ""))


def kernel_name(full):
    """The kernel's template name without its parameter list: 'rope_kv_fused_kernel<...>'."""
    return full.split("(")[0].strip().removeprefix("void ")


def profiles(path, text):
    """[(range, [(kernel, {metric: value})])] of one summary file, one entry per profile."""
    found = []
    for block in re.split(r"(?m)^# ", text)[1:]:
        title = block.split("\n", 1)[0].split(":", 1)[0]
        rows = [line for line in block.splitlines() if line.startswith('"')]
        table = list(csv.reader(io.StringIO("\n".join(rows))))
        if len(table) < 3 or DURATION not in table[0] or "Kernel Name" not in table[0]:
            fail_input(NAME, path, f"profile '{title}' has no key-metrics table")
        header, launches = table[0], table[2:]  # the second row holds the units
        by_kernel = {}
        for row in launches:
            if len(row) != len(header):
                fail_input(NAME, path, f"profile '{title}': a metrics row has {len(row)} fields")
            values = {}
            for metric in READ:
                if metric in header:
                    try:
                        values[metric] = number(row[header.index(metric)])
                    except ValueError:
                        fail_input(NAME, path, f"profile '{title}': {metric} is not a number")
            by_kernel.setdefault(kernel_name(row[header.index("Kernel Name")]), []).append(values)
        kernels = []
        for kernel, runs in by_kernel.items():
            runs.sort(key=lambda v: v[DURATION])
            kernels.append((kernel, runs[len(runs) // 2]))
        found.append((title, kernels))
    if not found:
        fail_input(NAME, path, "no profile in it (no line starting '# ')")
    return found


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    titles = [title for title, _ in COLUMNS.values()]
    titles.insert(SM_COLUMN, "SM active %")
    print("| profile | kernel | " + " | ".join(titles[:3]) + " | TB/s | " +
          " | ".join(titles[3:]) + " |")
    print("| --- " * (len(titles) + 3) + "|")
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            fail_input(NAME, path, f"cannot be read ({e.__class__.__name__})")
        for title, kernels in profiles(path, text):
            for kernel, v in kernels:
                cells = [COLUMNS[m][1](v[m]) if m in v else "-" for m in COLUMNS]
                cells.insert(SM_COLUMN, sm_active_pct(v))
                moved = v.get("dram__bytes_read.sum", 0) + v.get("dram__bytes_write.sum", 0)
                rate = f"{moved / v[DURATION] / 1e3:.2f}" if v[DURATION] > 0 else "-"
                print(f"| {title.replace('|', chr(92) + '|')} | {kernel} | " +
                      " | ".join(cells[:3]) + f" | {rate} | " + " | ".join(cells[3:]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
