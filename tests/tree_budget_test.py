#!/usr/bin/env python3
"""The tracked tree must leave room for a device call's carry: the device tool copies every tracked
file (and the carried builds) to the GPU box and refuses a call over 64 MiB in all (session 20's
first call was refused at 65.0 MB tracked + 5.4 MB carried). This fails while the tracked files
pass 60 MiB, so that results are packed (gzip reports, no .ncu-rep) before a session finds the
device closed to it. Skips (exit 77, with the reason) outside a git checkout.

usage: tree_budget_test.py SOURCE_DIR
"""
import os
import subprocess
import sys

BUDGET = 60 * 1024 * 1024  # 64 MiB less 4 for the carried builds (xz -9: ~1.3 MB for two)

source = sys.argv[1]
try:
    listed = subprocess.run(["git", "-C", source, "ls-files", "-z"], capture_output=True,
                            check=True).stdout.split(b"\0")
except (OSError, subprocess.CalledProcessError) as e:
    print(f"tree_budget: skipped: {source} is not a git checkout ({e})")
    sys.exit(77)
sizes = []
for name in filter(None, listed):
    path = os.path.join(source, os.fsdecode(name))
    if os.path.isfile(path):
        sizes.append((os.path.getsize(path), os.fsdecode(name)))
total = sum(s for s, _ in sizes)
print(f"tracked: {total / 2**20:.1f} MiB of {BUDGET / 2**20:.0f} MiB "
      f"({(BUDGET - total) / 2**20:.1f} MiB left); largest:")
for size, name in sorted(sizes, reverse=True)[:5]:
    print(f"  {size / 2**20:6.2f} MiB  {name}")
if total > BUDGET:
    print(f"FAIL: the tracked files pass {BUDGET / 2**20:.0f} MiB: pack results (gzip -9n the large "
          "reports, leave .ncu-rep files out) or a device call will be refused")
    sys.exit(1)
