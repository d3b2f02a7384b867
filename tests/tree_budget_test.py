#!/usr/bin/env python3
"""The tracked tree must leave room for a device call's carry: the device tool copies every tracked
file (and the carried builds) to the GPU box and refuses a call over 64 MB in all (session 20's
first call was refused at 65.0 MB tracked + 5.4 MB carried). The limit is decimal megabytes, not
MiB: session 47's call of 59.42 MB tracked + 5.54 MB carried (61.9 MiB) was refused, and 59.49 +
4.50 MB (63.996 MB) went through. This fails while the tracked files pass 60 MB, leaving 4 MB for
a call's carry (a build pair at xz -9 is about 1.8 MB, the stripped test binary 2.7 MB), so that
results are packed (gzip reports, no .ncu-rep) before a session finds the device closed to it.
Skips (exit 77, with the reason) outside a git checkout.

usage: tree_budget_test.py SOURCE_DIR
"""
import os
import subprocess
import sys

BUDGET = 60_000_000  # the device tool's 64 MB less 4 MB for the carried builds

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
print(f"tracked: {total / 1e6:.2f} MB of {BUDGET / 1e6:.0f} MB "
      f"({(BUDGET - total) / 1e6:.2f} MB left); largest:")
for size, name in sorted(sizes, reverse=True)[:5]:
    print(f"  {size / 1e6:6.2f} MB  {name}")
if total > BUDGET:
    print(f"FAIL: the tracked files pass {BUDGET / 1e6:.0f} MB: pack results (gzip -9n the large "
          "reports, leave .ncu-rep files out) or a device call will be refused")
    sys.exit(1)
