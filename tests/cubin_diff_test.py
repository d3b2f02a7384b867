#!/usr/bin/env python3
"""scripts/cubin_diff.py on cubins nvcc builds here from a small source with three kernels: one
changed by a fresh random constant, one added, one left alone (found the same, even though the
other two moved it within the file); --match, and files that are not cubins. Then
scripts/kernel_cubin.sh's refusals (its build of the fused kernels takes a minute and is left to
the A/B procedure)."""
import os
import random
import subprocess
import sys
import tempfile

from script_checks import check, run_script

SOURCE, NVCC = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(SOURCE, "scripts", "cubin_diff.py")
tmp = tempfile.mkdtemp()
rng = random.Random()
k = rng.randrange(2, 1000)


def cubin(name, body):
    src = os.path.join(tmp, name + ".cu")
    with open(src, "w") as f:
        f.write(body)
    out = os.path.join(tmp, name + ".cubin")
    p = subprocess.run([NVCC, "-arch=sm_90", "-cubin", "-O3", src, "-o", out], capture_output=True,
                       text=True)
    check(p.returncode == 0, f"nvcc {name}: {p.stderr[-500:]}")
    return out


KEPT = "__global__ void kept(float* x) { x[threadIdx.x] *= 3.0f; }\n"
base = cubin("base", KEPT + f"__global__ void scaled(int* x) {{ x[threadIdx.x] += {k}; }}\n")
exp = cubin("exp", f"__global__ void scaled(int* x) {{ x[threadIdx.x] += {k + 1}; }}\n" + KEPT +
            "__global__ void added(int* x) { x[0] = 1; }\n")
again = cubin("again", KEPT + f"__global__ void scaled(int* x) {{ x[threadIdx.x] += {k}; }}\n")

code, out, err = run_script(SCRIPT, base, exp)
lines = out.splitlines()
check(code == 1, f"a changed kernel exits 1: {code} {out} {err}")
check(any(l.startswith("differs") and "scaled" in l for l in lines), f"scaled differs: {out}")
check(any(l.startswith("only in B") and "added" in l for l in lines), f"added is B's: {out}")
check(not any("kept" in l for l in lines), f"kept is the same: {out}")
check(lines[-1] == "1 same, 1 differ, 0 only in A, 1 only in B", f"counts: {lines[-1]}")
code, out, err = run_script(SCRIPT, exp, base)
check(code == 1 and "only in A" in out and "added" in out, f"the other way round: {out}")
code, out, err = run_script(SCRIPT, base, again)
check(code == 0 and out.strip() == "2 same, 0 differ, 0 only in A, 0 only in B",
      f"the same source twice: {code} {out}")
code, out, err = run_script(SCRIPT, base, exp, "--match", "kept")
check(code == 0 and out.strip() == "1 same, 0 differ, 0 only in A, 0 only in B",
      f"--match keeps one kernel: {code} {out}")

# Not cubins: one line on stderr, exit 2.
text = os.path.join(tmp, "text.cubin")
with open(text, "w") as f:
    f.write("not an ELF file\n")
truncated = os.path.join(tmp, "truncated.cubin")
with open(base, "rb") as f, open(truncated, "wb") as g:
    g.write(f.read()[:80])
for path, what in ((text, "not a 64-bit"), (truncated, "outside the file"),
                   (os.path.join(tmp, "none.cubin"), "No such file")):
    code, out, err = run_script(SCRIPT, base, path)
    check(code == 2 and what in err and len(err.strip().splitlines()) == 1, f"{what}: {code} {err}")
code, out, err = run_script(SCRIPT, base, exp, "--match", "(")
check(code == 2 and "not a regular expression" in err, f"bad --match: {code} {err}")

# kernel_cubin.sh refuses before it compiles anything.
SH = os.path.join(SOURCE, "scripts", "kernel_cubin.sh")
for args, what in (((), "TREE OUT.cubin"), ((tmp, os.path.join(tmp, "x.cubin")), "no kernels/"),
                   ((SOURCE, os.path.join(tmp, "no", "x.cubin")), "no folder"),
                   ((SOURCE, os.path.join(tmp, "x.cubin"), "-DX=1;rm"), "not -DVAR=VALUE")):
    p = subprocess.run(["bash", SH, *args], capture_output=True, text=True)
    check(p.returncode == 4 and what in p.stderr, f"kernel_cubin {what}: {p.returncode} {p.stderr}")
print("cubin_diff: all checks passed")
