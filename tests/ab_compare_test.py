#!/usr/bin/env python3
"""scripts/ab_compare.py (the kernel A/B rule) on a committed H200 report as the base and copies
of it with the fused medians scaled per case: each verdict (adopt, reject, confirm), the subset
the gain is judged on, the cases --only compares, the pair column, and unreadable inputs."""
import json
import os
import random
import sys
import tempfile

from script_checks import check, run_script

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "ab_compare.py")
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")
tmp = tempfile.mkdtemp()


def run(*args):
    return run_script(SCRIPT, *args)


with open(REPORT) as f:
    base = json.load(f)
ids = [c["id"] for c in base["cases"]]


def scaled(name, factor_of, pair_factor=1.0):
    """A copy of the base report whose fused median of case i is scaled by factor_of(i)."""
    r = json.loads(json.dumps(base))
    for i, case in enumerate(r["cases"]):
        for v in case["variants"]:
            if v["variant"] == "fused":
                v["median_us"] *= factor_of(i)
            if v["variant"] == "pair":
                v["median_us"] *= pair_factor
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(r, f)
    return path


rng = random.Random()
gain = rng.uniform(0.93, 0.97)  # a fresh gain each run: 3-7 % faster everywhere
faster = scaled("faster", lambda i: gain)
code, out, err = run("--base", REPORT, "--exp", faster, "--min-gain", "3")
check(code == 0 and "verdict: adopt" in out, f"uniform gain adopts: {code} {out[-300:]} {err}")
check(f"{100 * (gain - 1):+.1f}%" in out, "the per-case change is printed")

# The base run twice: drift between the two printed, and the base is their geometric mean.
again = scaled("again", lambda i: 1.01)
code, out, err = run("--base", REPORT, "--base", again, "--exp", faster, "--min-gain", "3")
check("+1.0 %" in out, f"base drift column: {out[:400]}")

worse = rng.randrange(len(ids))
one_slow = scaled("one-slow", lambda i: 1.05 if i == worse else gain)
code, out, err = run("--base", REPORT, "--exp", one_slow)
check(code == 1 and "verdict: reject" in out and "SLOWER" in out, f"a 5 % loss rejects: {out[-300:]}")
check(ids[worse] in out.split("worst case ")[1], "the worst case is named")

borderline = scaled("borderline", lambda i: 1.03 if i == worse else gain)
code, out, err = run("--base", REPORT, "--exp", borderline)
check(code == 3 and "confirm 1 case" in out, f"a 3 % loss asks for confirmation: {out[-300:]}")

flat = scaled("flat", lambda i: 1.0)
code, out, err = run("--base", REPORT, "--exp", flat)
check(code == 1 and "too little gain" in out, f"no gain rejects: {out[-200:]}")

# The pair's check asks no gain: a run a little slower on every case (noise on an untouched
# kernel) passes, a case beyond the limit still fails, and a mean below zero reads "slower".
noise = rng.uniform(1.002, 1.015)
jitter = scaled("jitter", lambda i: noise)
code, out, err = run("--base", REPORT, "--exp", jitter, "--no-gain-asked")
check(code == 0 and "(none asked)" in out, f"no gain asked: noise adopts: {code} {out[-300:]}")
check("% slower (none asked)" in out, f"a negative gain reads slower: {out[-300:]}")
code, out, err = run("--base", REPORT, "--exp", one_slow, "--no-gain-asked")
check(code == 1 and "SLOWER" in out, f"no gain asked: a 5 % loss still rejects: {out[-300:]}")
code, out, err = run("--base", REPORT, "--exp", jitter, "--min-gain", "0")
check(code == 1 and "too little gain" in out, "--min-gain 0 rejects the same noise")
code, out, err = run("--base", REPORT, "--exp", jitter, "--min-gain", "1", "--no-gain-asked")
check(code == 2 and "not allowed with" in err, f"--min-gain with --no-gain-asked: {code} {err}")

# Judged on a subset: half the cases 10 % faster, the rest unchanged.
half = set(rng.sample(range(len(ids)), len(ids) // 2))
mixed = scaled("mixed", lambda i: 0.9 if i in half else 1.0, pair_factor=1.02)
subset = os.path.join(tmp, "subset.txt")
with open(subset, "w") as f:
    f.write("# cases whose launch changed\n" + "".join(ids[i] + "\n" for i in sorted(half)))
code, out, err = run("--base", REPORT, "--exp", mixed, "--subset", subset, "--min-gain", "6")
check(code == 0 and f"subset: {len(half)} cases judged" in out, f"subset adopts: {out[-300:]}")
check("(not judged)" in out and "+2.0" in out, "unjudged cases marked, pair change shown")
code, out, err = run("--base", REPORT, "--exp", mixed, "--min-gain", "6")
check(code == 1, "the same report judged on every case has too little gain")

# One run split over several reports (one per config), joined by commas: the same verdict and
# cases as the whole report; a case measured twice in one run counts with the geometric mean.
cut = rng.randrange(1, len(ids))


def split(path, name):
    with open(path) as f:
        whole = json.load(f)
    parts = []
    for i, cases in enumerate((whole["cases"][:cut], whole["cases"][cut:])):
        part = dict(whole, cases=cases)
        parts.append(os.path.join(tmp, f"{name}-{i}.json"))
        with open(parts[-1], "w") as f:
            json.dump(part, f)
    return ",".join(parts)


code_whole, out_whole, _ = run("--base", REPORT, "--exp", mixed, "--subset", subset)
code, out, err = run("--base", split(REPORT, "base"), "--exp", split(mixed, "mixed"), "--subset",
                     subset)
check(code == code_whole and out == out_whole, f"split reports judge as the whole: {code} {err}")
slower_run = scaled("slower-run", lambda i: 1.1)  # the base run again, every case 10 % slower
code, out, err = run("--base", REPORT + "," + slower_run, "--exp", slower_run)
check(code == 1 and all("+4.9%" in line for line in out.splitlines()[1:len(ids) + 1]),
      f"a case twice in one run: the geometric mean of both: {code} {out[:300]} {err}")

# Launches recorded (cases[].fused_launch): a case whose kernel or grid differs is marked, the
# judged cases that kept theirs are counted, and the verdict does not change.
def with_launches(name, source, launch_of):
    with open(source) as f:
        r = json.load(f)
    for i, case in enumerate(r["cases"]):
        case["fused_launch"] = launch_of(i)
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(r, f)
    return path


moved_case = rng.randrange(len(ids))
flat = {"kernel": "flat", "role_major": False, "ctas": 64, "threads": 8192}
strided = {"kernel": "strided", "role_major": True, "ctas": 1188, "threads": 8192}
base_l = with_launches("base-launch", REPORT, lambda i: flat)
exp_l = with_launches("exp-launch", faster, lambda i: strided if i == moved_case else flat)
launch_subset = os.path.join(tmp, "launch-subset.txt")
with open(launch_subset, "w") as f:
    f.write(ids[moved_case] + "\n" + ids[(moved_case + 1) % len(ids)] + "\n")
code_l, out_l, err_l = run("--base", base_l, "--exp", exp_l, "--subset", launch_subset,
                           "--min-gain", "3")
code_p, out_p, _ = run("--base", REPORT, "--exp", faster, "--subset", launch_subset,
                       "--min-gain", "3")
marked = [line for line in out_l.splitlines() if "launch: flat x64 -> strided roles x1188" in line]
check(len(marked) == 1 and marked[0].split()[0] == ids[moved_case],
      f"the moved case is marked: {out_l[:600]} {err_l}")
check("launch: moved in 1 case(s); 1 judged case(s) kept theirs" in out_l,
      f"the launch summary: {out_l[-400:]}")
check(code_l == code_p and out_p.split("verdict")[1] == out_l.split("verdict")[1],
      f"launches do not change the verdict: {code_l} {code_p}")
check("launch:" not in out_p, "reports without launches print no launch notes")

# --subset moved: the judged cases are those whose launch moved, exactly as a file naming them.
only_moved = os.path.join(tmp, "only-moved.txt")
with open(only_moved, "w") as f:
    f.write(ids[moved_case] + "\n")
code_m, out_m, err_m = run("--base", base_l, "--exp", exp_l, "--subset", "moved", "--min-gain", "3")
code_f, out_f, _ = run("--base", base_l, "--exp", exp_l, "--subset", only_moved, "--min-gain", "3")
check(code_m == code_f == 0 and "subset: 1 cases judged" in out_m, f"moved: {code_m} {out_m[-300:]} {err_m}")
check(out_m.split("verdict")[1] == out_f.split("verdict")[1], "moved judges as the file naming it")
unjudged = [line for line in out_m.splitlines() if "(not judged)" in line]
check(len(unjudged) == len(ids) - 1 and not any(l.split()[0] == ids[moved_case] for l in unjudged),
      f"every unmoved case is left out: {len(unjudged)}")
same = with_launches("exp-same-launch", faster, lambda i: flat)
code, out, err = run("--base", base_l, "--exp", same, "--subset", "moved")
check(code == 1 and "no case's launch moved" in out, f"nothing moved rejects: {code} {out[-200:]}")
code, out, err = run("--base", REPORT, "--exp", faster, "--subset", "moved")
check(code == 2 and "do not record the fused launch" in err and len(err.strip().splitlines()) == 1,
      f"moved without launches: {code} {err}")

# Only the parameter layout changed (same kernel name, order and grid): still a moved launch.
compact = dict(flat, compact=True)
exp_c = with_launches("exp-compact", faster, lambda i: compact if i == moved_case else flat)
code_c, out_c, err_c = run("--base", base_l, "--exp", exp_c, "--subset", "moved", "--min-gain", "3")
check("launch: flat x64 -> flat compact x64" in out_c and "subset: 1 cases judged" in out_c,
      f"a compact launch counts as moved: {code_c} {out_c[-400:]} {err_c}")

# The base's share of the card's copy bandwidth (cases[].fused_pct_of_bandwidth): the judged cases
# at or above --bandwidth-bound are counted on the headroom line with the card's name; unjudged
# cases, cases below the bound and reports without shares add nothing, and the verdict stays.
def with_shares(name, share_of, card="NVIDIA H100 80GB HBM3"):
    r = json.loads(json.dumps(base))
    r["device"]["name"] = card
    for i, case in enumerate(r["cases"]):
        share = share_of(i)
        if share is None:
            case.pop("fused_pct_of_bandwidth", None)
        else:
            case["fused_pct_of_bandwidth"] = share
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(r, f)
    return path


high = set(rng.sample(range(len(ids)), 5))
judged_high = sorted(high & half)
shares_base = with_shares("shares", lambda i: rng.uniform(91, 97) if i in high else 55.0)
code_s, out_s, err_s = run("--base", shares_base, "--exp", mixed, "--subset", subset, "--min-gain",
                           "6")
code_n, out_n, _ = run("--base", with_shares("no-shares", lambda i: None), "--exp", mixed,
                       "--subset", subset, "--min-gain", "6")
if judged_high:
    check(f"headroom: {len(judged_high)} of {len(half)} judged case(s)" in out_s and
          "NVIDIA H100 80GB HBM3" in out_s, f"headroom line: {out_s[-500:]} {err_s}")
else:
    check("headroom:" not in out_s, f"no judged case at the bound: {out_s[-300:]}")
check("headroom:" not in out_n, "a report without shares prints no headroom line")
check(code_s == code_n and out_s.split("verdict")[1] == out_n.split("verdict")[1],
      f"the headroom line does not change the verdict: {code_s} {code_n}")
code, out, _ = run("--base", shares_base, "--exp", mixed, "--subset", subset, "--min-gain", "6",
                   "--bandwidth-bound", "98")
check("headroom:" not in out, "nothing at or above a higher bound")
everything_high = with_shares("all-high", lambda i: 93.0)
code, out, _ = run("--base", everything_high, "--exp", mixed, "--subset", subset, "--min-gain", "6")
check(f"headroom: {len(half)} of {len(half)} judged case(s) ran the base at 93 %" in out,
      f"every judged case counted once, unjudged ones not: {out[-400:]}")
code, out, _ = run("--base", everything_high, "--exp", mixed, "--variant", "pair",
                   "--no-gain-asked")
check("headroom:" not in out, f"the pair's check gets no headroom line: {out[-300:]}")

# --only: a round derived from the experiment's run is compared on the listed cases alone. The
# listed cases a fresh 4-8 % faster, one unlisted case 10 % slower and the rest unchanged: with
# --only it adopts (the slow case is the base's own launch in that round), without it rejects.
listed = set(rng.sample(range(len(ids)), max(2, len(ids) // 4)))
unlisted_slow = rng.choice([i for i in range(len(ids)) if i not in listed])
listed_gain = rng.uniform(0.92, 0.96)
derived = scaled("derived", lambda i: listed_gain if i in listed else
                 (1.10 if i == unlisted_slow else 1.0))
only_file = os.path.join(tmp, "only.txt")
with open(only_file, "w") as f:
    f.write("# the derived round's own launches\n" + "".join(ids[i] + "\n" for i in sorted(listed)))
code, out, err = run("--base", REPORT, "--exp", derived, "--only", only_file, "--min-gain", "3",
                     "--max-slower", "4")
check(code == 0 and f"only: {len(listed)} of {len(ids)} measured cases compared" in out,
      f"--only adopts on the listed cases: {code} {out[-400:]} {err}")
rows = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in ids]
check(sorted(rows) == sorted(ids[i] for i in listed) and ids[unlisted_slow] not in rows,
      f"only the listed cases are printed: {len(rows)}")
code, out, err = run("--base", REPORT, "--exp", derived, "--min-gain", "3", "--max-slower", "4")
check(code == 1 and "SLOWER" in out, f"without --only the unlisted loss rejects: {code} {out[-300:]}")
listed_slow = scaled("listed-slow", lambda i: 1.10 if i == min(listed) else listed_gain)
code, out, err = run("--base", REPORT, "--exp", listed_slow, "--only", only_file, "--min-gain", "3")
check(code == 1 and "SLOWER" in out, f"a listed case 10 % slower still rejects: {code} {out[-300:]}")
# With --subset inside it: the mean is judged on the subset, the limit on every listed case.
one_listed = os.path.join(tmp, "one-listed.txt")
with open(one_listed, "w") as f:
    f.write(ids[min(listed)] + "\n")
code, out, err = run("--base", REPORT, "--exp", derived, "--only", only_file, "--subset",
                     one_listed, "--min-gain", "3")
check(code == 0 and "subset: 1 cases judged" in out, f"--subset within --only: {code} {out[-300:]}")
with open(only_file, "a") as f:
    f.write("no-such-case|N=1\n")
code, out, err = run("--base", REPORT, "--exp", derived, "--only", only_file, "--min-gain", "3")
check("1 listed but not measured" in out, f"a listed case not measured is counted: {out[:300]}")
nothing = os.path.join(tmp, "nothing.txt")
with open(nothing, "w") as f:
    f.write("no-such-case|N=1\n")
code, out, err = run("--base", REPORT, "--exp", derived, "--only", nothing)
check(code == 2 and "no listed case" in err and len(err.strip().splitlines()) == 1,
      f"--only naming no measured case: {code} {err}")
code, out, err = run("--base", REPORT, "--exp", derived, "--only", os.path.join(tmp, "absent.txt"))
check(code == 2 and len(err.strip().splitlines()) == 1, f"--only file missing: {code} {err}")

# Inputs that are not reports: one line on stderr, exit 2.
junk = os.path.join(tmp, "junk.json")
with open(junk, "w") as f:
    f.write("{not json")
for args, what in (((junk,), "not JSON"), ((os.path.join(tmp, "none.json"),), "No such file")):
    code, out, err = run("--base", REPORT, "--exp", *args)
    check(code == 2 and what in err and len(err.strip().splitlines()) == 1, f"{what}: {code} {err}")
other = os.path.join(tmp, "other.json")
with open(other, "w") as f:
    json.dump({"tool": "something-else", "cases": []}, f)
code, out, err = run("--base", other, "--exp", faster)
check(code == 2 and "not a rope-kv-bench report" in err, f"foreign report: {err}")
disjoint = json.loads(json.dumps(base))
for c in disjoint["cases"]:
    c["id"] += "|x"
disjoint_path = os.path.join(tmp, "disjoint.json")
with open(disjoint_path, "w") as f:
    json.dump(disjoint, f)
code, out, err = run("--base", REPORT, "--exp", disjoint_path)
check(code == 2 and "no case in common" in err, f"disjoint reports: {err}")
print("ab_compare: all checks passed")
