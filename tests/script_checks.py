"""What the tests of scripts/*.py share: run a script the way a user does, and fail loudly."""
import subprocess
import sys


def run_script(script, *args):
    """(exit code, stdout, stderr) of `python3 SCRIPT ARGS...`."""
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
