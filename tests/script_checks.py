"""What the tests of scripts/*.py share: run a script the way a user does, and fail loudly."""
import gzip
import json
import os
import subprocess
import sys


def run_script(script, *args):
    """(exit code, stdout, stderr) of `python3 SCRIPT ARGS...`."""
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write_json(directory, name, doc):
    """DIRECTORY/NAME holding DOC as JSON; its path."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def committed_h200_report(source, *parts):
    """A gzipped report committed under SOURCE/results/h200/ (PARTS: its path below there)."""
    with gzip.open(os.path.join(source, "results", "h200", *parts), "rt") as f:
        return json.load(f)
