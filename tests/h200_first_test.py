#!/usr/bin/env python3
"""scripts/h200_first.sh with a stand-in nvidia-smi on PATH (no GPU): an H200 runs the H200
script and exits 0; another card runs nothing and exits 3; no card exits 5 with one line; a
missing script exits 4. The H200 script leaves a marker file, so "runs nothing" is checked, not
assumed."""
import os
import random
import stat
import subprocess
import sys
import tempfile

from script_checks import check

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "h200_first.sh")
tmp = tempfile.mkdtemp()
marker = os.path.join(tmp, "ran-%d" % random.randrange(1 << 30))
h200_work = os.path.join(tmp, "h200-work.sh")
with open(h200_work, "w") as f:
    f.write("#!/usr/bin/env bash\ntouch " + marker + "\nexit 7\n")


def fake_gpu(name):
    """A folder holding an nvidia-smi that names the card `name` (None: prints nothing)."""
    folder = tempfile.mkdtemp(dir=tmp)
    path = os.path.join(folder, "nvidia-smi")
    with open(path, "w") as f:
        f.write("#!/usr/bin/env bash\n" + ("" if name is None else "echo '" + name + "'\n"))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return folder


def run(card, *args):
    env = dict(os.environ, PATH=fake_gpu(card) + os.pathsep + os.environ["PATH"])
    if os.path.exists(marker):
        os.remove(marker)
    p = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr, os.path.exists(marker)


rc, out, err, ran = run("NVIDIA H200", h200_work)
check(rc == 0 and ran, f"an H200 runs the H200 script and exits 0 (rc {rc}, ran {ran})")
check("card: NVIDIA H200" in out and "exit 7" in out,
      f"it names the card and the script's exit: {out!r}")
rc, out, err, ran = run("NVIDIA H100 80GB HBM3", h200_work)
check(rc == 3 and not ran, f"another card runs nothing and exits 3 (rc {rc}, ran {ran})")
check("card: NVIDIA H100" in out, f"it names the card: {out!r}")
rc, out, err, ran = run(None, h200_work)
check(rc == 5 and not ran and len(err.strip().splitlines()) == 1,
      f"no card: exit 5, one line ({rc}, {err!r})")
rc, out, err, ran = run("NVIDIA H200", os.path.join(tmp, "missing.sh"))
check(rc == 4 and not ran and len(err.strip().splitlines()) == 1,
      f"a missing script: exit 4, one line ({rc}, {err!r})")
print("h200_first: every card and argument case as documented")
