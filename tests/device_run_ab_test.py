#!/usr/bin/env python3
"""scripts/device_run.sh's `ab` step end to end with stand-in builds (no GPU): each stand-in's
`bench` writes a committed H200 report with its fused medians scaled by a factor of its own. The
step must run the base first and last and every experiment on every config, and decide each
experiment with the A/B rule in the same call: its subset file, the fused and the pair verdicts
in ab-decisions.txt and the decision files inside ab.tar.gz. The `adopted` step after it must
name the adopted experiment and validate that build alone (AB_PREFER's first adopted name where
given); a build whose verdict is "confirm first" is adopted only when the five-pass re-run of its
marked cases (exp / base / exp) holds; without ab's decisions it refuses. AB_ROUNDS=2 runs base
and experiments twice, interleaved, and judges each experiment on both of its runs. AB_JUDGE=pair
judges a change to the pair alone: the pair must gain on the subset, the fused kernel must not
move. scripts/ab_call.sh, the
device call around both, packs what they wrote and refuses bad arguments in one line."""
import json
import os
import random
import stat
import subprocess
import sys
import tarfile
import tempfile

from script_checks import check

SOURCE = sys.argv[1]
REPORT = os.path.join(SOURCE, "results", "h200", "wave2", "seed-table-run1.json")
tmp = tempfile.mkdtemp()
rng = random.Random()

STAND_IN = """#!/usr/bin/env python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
factor = float(open(os.path.join(here, "factor")).read())
args = sys.argv[1:]
# A build's second A/B run may have a factor of its own ("factor_again"), and every bench run
# can be logged in order ($RKV_TEST_ORDER: the build's folder name a line).
if (args[0] == "bench" and os.path.exists(os.path.join(here, "factor_again"))
        and os.path.exists(os.path.join(here, "calls"))):
    factor = float(open(os.path.join(here, "factor_again")).read())
if args[0] == "bench" and os.environ.get("RKV_TEST_ORDER"):
    with open(os.environ["RKV_TEST_ORDER"], "a") as f:
        f.write(os.path.basename(here) + "\\n")
confirming = "--passes" in args  # the adopted step's confirmation re-run
assert args[0] in ("bench", "validate") and ("--config" in args or confirming), args
# Cases of a factor of their own: "slow" (in the A/B) and "confirm" (in the re-run), if present.
def factor_file(name):
    path = os.path.join(here, name)
    return float(open(path).read()) if os.path.exists(path) else None
slow_ids = set(open(os.path.join(here, "slow_ids")).read().split()) if os.path.exists(
    os.path.join(here, "slow_ids")) else set()
slow_factor = factor_file("confirm_factor" if confirming else "slow_factor")
if args[0] == "validate":  # the adopted step's matrix: say so, write a report-shaped file
    json.dump({"cases": []}, open(args[args.index("--json") + 1], "w"))
    with open(os.path.join(here, "validated"), "a") as f:
        f.write(args[args.index("--config") + 1] + "\\n")
    sys.exit(0)
report = json.load(open(%r))
wanted = [args[i + 1] for i, a in enumerate(args) if a == "--case"]
if confirming:
    assert wanted and args[args.index("--passes") + 1] == "5", args
if wanted:  # the confirmation, or an A/B of AB_CASES's ids
    report["cases"] = [c for c in report["cases"] if c["id"] in wanted]
# With a "launches" file the report records each case's fused launch: the build's "moved_ids"
# on a grid of their own, every other case on the grid the base uses.
moved_ids = set(open(os.path.join(here, "moved_ids")).read().split()) if os.path.exists(
    os.path.join(here, "moved_ids")) else set()
pair_factor = factor_file("pair_factor")  # a change to the pair alone moves its median
for case in report["cases"]:
    for v in case["variants"]:
        if v["variant"] == "fused":
            v["median_us"] *= slow_factor if case["id"] in slow_ids and slow_factor else factor
        elif v["variant"] == "pair" and pair_factor:
            v["median_us"] *= pair_factor
    if os.path.exists(os.path.join(here, "launches")):
        case["fused_launch"] = {"kernel": "strided", "role_major": False, "threads": 4096,
                                "ctas": 32 if case["id"] in moved_ids else 16}
json.dump(report, open(args[args.index("--json") + 1], "w"))
with open(os.path.join(here, "confirm_calls" if confirming else "calls"), "a") as f:
    f.write((" ".join(wanted) if confirming else " ".join([args[args.index("--config") + 1]] +
                                                          wanted)) + "\\n")
print("stand-in bench, fused x", factor)
""" % REPORT


def build(folder, factor):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rope-kv-bench")
    with open(path, "w") as f:
        f.write(STAND_IN)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    with open(os.path.join(folder, "factor"), "w") as f:
        f.write(repr(factor))


with open(REPORT) as f:
    ids = [c["id"] for c in json.load(f)["cases"]]
bin_dir = os.path.join(tmp, "bin")
build(bin_dir, 1.0)
gain = rng.uniform(0.93, 0.96)  # 4-7 % faster: adopted
build(os.path.join(bin_dir, "exp-fast"), gain)
build(os.path.join(bin_dir, "exp-slow"), rng.uniform(1.05, 1.08))  # more than 4 % slower
# exp-nearly and exp-nearlybad: faster overall, but two cases 2-4 % slower ("confirm first"); in
# the re-run those two are level (confirmed: adopted) or still slower (not adopted).
slow_pick = rng.sample(ids, 2)
for name, again in (("exp-nearly", rng.uniform(0.99, 1.01)), ("exp-nearlybad", 1.03)):
    build(os.path.join(bin_dir, name), rng.uniform(0.93, 0.95))
    for file, text in (("slow_ids", "\n".join(slow_pick)), ("slow_factor", "1.03"),
                       ("confirm_factor", repr(again))):
        with open(os.path.join(bin_dir, name, file), "w") as f:
            f.write(text)
judged = rng.sample(ids, len(ids) // 3)
with open(os.path.join(bin_dir, "exp-fast", "subset.txt"), "w") as f:
    f.write("".join(i + "\n" for i in judged))

out = os.path.join(tmp, "out")
env = dict(os.environ, OUT=out, BIN=bin_dir, AB_CONFIGS="prefill decode", ADOPTED_STEPS="matrix")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab", "adopted"],
                   env=env, capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"ab step exit {p.returncode}: {p.stdout[-600:]} {p.stderr[-600:]}")

with open(os.path.join(bin_dir, "calls")) as f:
    base_calls = f.read().split()
check(len(base_calls) == 4 and all(c.endswith(("prefill.json", "decode.json")) for c in base_calls),
      f"the base runs each config first and last: {base_calls}")
with open(os.path.join(out, "ab-decisions.txt")) as f:
    decisions = f.read().splitlines()
check(decisions == ["exp-fast fused 0 pair 0", "exp-nearly fused 3 pair 0",
                    "exp-nearlybad fused 3 pair 0", "exp-slow fused 1 pair 0"],
      f"one line an experiment with the rule's exits: {decisions}")
# The confirmation: both "confirm first" builds re-ran exactly the two marked cases, twice each
# (before and after the base), the base once for each; exp-nearly held, exp-nearlybad did not.
for name in ("exp-nearly", "exp-nearlybad"):
    with open(os.path.join(bin_dir, name, "confirm_calls")) as f:
        runs = f.read().splitlines()
    check(len(runs) == 2 and all(sorted(r.split()) == sorted(slow_pick) for r in runs),
          f"{name} re-ran the two marked cases twice: {runs}")
with open(os.path.join(bin_dir, "confirm_calls")) as f:
    check(len(f.read().splitlines()) == 2, "the base re-ran once for each build")
check(not os.path.exists(os.path.join(bin_dir, "exp-fast", "confirm_calls")),
      "an adopted build is not re-run")
with open(os.path.join(out, "confirm-exp-nearly.txt")) as f:
    text = f.read()
check("verdict: confirmed (2 case(s)" in text, f"exp-nearly confirmed: {text[-300:]}")
with open(os.path.join(out, "confirm-exp-nearlybad.txt")) as f:
    text = f.read()
check("verdict: reject (2 case(s) more than 2 % slower in both runs)" in text,
      f"exp-nearlybad not confirmed: {text[-300:]}")

with tarfile.open(os.path.join(out, "ab.tar.gz")) as t:
    names = set(t.getnames())
    for want in ("ab/base-prefill.json", "ab/base-decode-again.json", "ab/exp-fast-decode.json",
                 "ab/decision-exp-fast.txt", "ab/decision-exp-slow-pair.txt"):
        check(want in names, f"{want} in ab.tar.gz: {sorted(names)}")
    fast = t.extractfile("ab/decision-exp-fast.txt").read().decode()
    slow = t.extractfile("ab/decision-exp-slow.txt").read().decode()
check(f"subset: {len(judged)} cases judged" in fast and "verdict: adopt" in fast,
      f"exp-fast judged on its subset.txt: {fast[-400:]}")
check(f"{100 * (1 - gain):.2f} % faster" in fast.split("judged geometric mean: ")[1],
      f"the gain is the stand-in's factor: {fast[-300:]}")
check("verdict: reject" in slow and "SLOWER" in slow, f"exp-slow rejected: {slow[-300:]}")
# adopted: exp-fast (both rules say 0) is validated with the full matrix; nothing else is.
with open(os.path.join(out, "adopted.txt")) as f:
    check(f.read().strip() == "exp-fast", "adopted.txt names the adopted experiment")
with open(os.path.join(bin_dir, "exp-fast", "validated")) as f:
    check(f.read().split() == ["configs/full-matrix.json"], "the adopted build ran the matrix")
check(not any(os.path.exists(os.path.join(d, "validated"))
              for d in (bin_dir, os.path.join(bin_dir, "exp-slow"),
                        os.path.join(bin_dir, "exp-nearly"), os.path.join(bin_dir, "exp-nearlybad"))),
      "no other build validated")
check(os.path.exists(os.path.join(out, "validate-full-matrix.json")), "the matrix report in $OUT")
with open(os.path.join(out, "steps.txt")) as f:
    check("adopted 0" in f.read(), "the adopted step succeeded")


def adopted_in(folder, decisions, **extra_env):
    """Runs `device_run.sh adopted` in a fresh OUT holding DECISIONS as ab-decisions.txt (and the
    A/B's ab.tar.gz, where the confirmation reads its decision files); adopted.txt's name."""
    os.makedirs(folder)
    with open(os.path.join(folder, "ab-decisions.txt"), "w") as f:
        f.write(decisions)
    with open(os.path.join(out, "ab.tar.gz"), "rb") as src, \
            open(os.path.join(folder, "ab.tar.gz"), "wb") as dst:
        dst.write(src.read())
    subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "adopted"],
                   env=dict(env, OUT=folder, **extra_env), capture_output=True, text=True,
                   timeout=120)
    with open(os.path.join(folder, "adopted.txt")) as f:
        return f.read().strip()


# A confirmed build is adopted like any other: preferred, it is the one validated.
check(adopted_in(os.path.join(tmp, "confirmed"), "\n".join(decisions) + "\n",
                 AB_PREFER="exp-nearlybad exp-nearly") == "exp-nearly",
      "a confirmed build can be the adopted one")
with open(os.path.join(bin_dir, "exp-nearly", "validated")) as f:
    check(f.read().split() == ["configs/full-matrix.json"], "the confirmed build ran the matrix")
# AB_CONFIRM=0: no re-run, so "confirm first" is not adopted.
check(adopted_in(os.path.join(tmp, "skipped"), "exp-nearly fused 3 pair 0\n", AB_CONFIRM="0")
      == "none", "AB_CONFIRM=0 adopts no build that needs a confirmation")

# AB_PREFER: the first preferred build that both rules adopted wins over ab's order; a preferred
# build the rules rejected is passed over. (adopted reads only ab-decisions.txt.)
build(os.path.join(bin_dir, "exp-fast2"), gain)
check(adopted_in(os.path.join(tmp, "prefer"),
                 "exp-fast fused 0 pair 0\nexp-fast2 fused 0 pair 0\nexp-slow fused 1 pair 0\n",
                 AB_PREFER="exp-slow exp-fast2 exp-fast") == "exp-fast2",
      "AB_PREFER picks the first preferred adopted build")
with open(os.path.join(bin_dir, "exp-fast2", "validated")) as f:
    check(f.read().split() == ["configs/full-matrix.json"], "the preferred build ran the matrix")
with open(os.path.join(bin_dir, "exp-fast", "validated")) as f:
    check(len(f.read().split()) == 1, "exp-fast not validated again")

# AB_SUBSET=moved (a routing change, no subset file): the gain is judged on the cases whose
# launch moved. exp-route moves a fifth of the cases and makes them 8-10 % faster, the rest
# untouched: adopted on the moved cases (>= 8 %), where judging every case sees at most
# 6 / 32 x 10.5 % = 2.0 %, below the 3 % asked (a quarter at 12 % could pass 3 %: it did once).
routes_dir = os.path.join(tmp, "routes")
build(routes_dir, 1.0)
route_dir = os.path.join(routes_dir, "exp-route")
build(route_dir, 1.0)
moved_pick = rng.sample(ids, len(ids) // 5)
for d in (routes_dir, route_dir):
    open(os.path.join(d, "launches"), "w").close()
for file, text in (("moved_ids", "\n".join(moved_pick)), ("slow_ids", "\n".join(moved_pick)),
                   ("slow_factor", repr(rng.uniform(0.90, 0.92)))):
    with open(os.path.join(route_dir, file), "w") as f:
        f.write(text)
for subset_env, verdict in (("moved", "verdict: adopt"), ("", "too little gain")):
    routes_out = os.path.join(tmp, "routes-out-" + (subset_env or "all"))
    p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                       env=dict(env, OUT=routes_out, BIN=routes_dir, AB_CONFIGS="decode",
                                AB_SUBSET=subset_env), capture_output=True, text=True, timeout=300)
    with tarfile.open(os.path.join(routes_out, "ab.tar.gz")) as t:
        text = t.extractfile("ab/decision-exp-route.txt").read().decode()
    judged_line = f"subset: {len(moved_pick)} cases judged"
    check(verdict in text and ((judged_line in text) == (subset_env == "moved")),
          f"AB_SUBSET={subset_env!r}: {text[-400:]}")

# AB_CASES: one run a build of exactly the listed ids with never-slower.json's timing, judged on
# them; a missing list is refused in one line, exit 4, before anything runs.
cases_dir = os.path.join(tmp, "cases")
build(cases_dir, 1.0)
build(os.path.join(cases_dir, "exp-fast"), gain)
listed = rng.sample(ids, 5)
cases_file = os.path.join(tmp, "cases.txt")
with open(cases_file, "w") as f:
    f.write("".join(i + "\n" for i in listed) + "\n")
cases_out = os.path.join(tmp, "cases-out")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                   env=dict(env, OUT=cases_out, BIN=cases_dir, AB_CASES=cases_file),
                   capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"AB_CASES ab exit {p.returncode}: {p.stdout[-600:]}")
with open(os.path.join(cases_dir, "calls")) as f:
    runs = f.read().splitlines()
check(len(runs) == 2 and all(r.split() == ["configs/never-slower.json"] + listed for r in runs),
      f"AB_CASES: the base ran the listed ids with never-slower's timing, first and last: {runs}")
with tarfile.open(os.path.join(cases_out, "ab.tar.gz")) as t:
    report = json.load(t.extractfile("ab/exp-fast-cases.json"))
    text = t.extractfile("ab/decision-exp-fast.txt").read().decode()
check(sorted(c["id"] for c in report["cases"]) == sorted(listed), "only the listed cases timed")
check(f"{len(listed)} cases; geometric mean" in text and "verdict: adopt" in text,
      f"AB_CASES judged on the listed cases: {text[-300:]}")
missing_out = os.path.join(tmp, "cases-missing")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                   env=dict(env, OUT=missing_out, BIN=cases_dir,
                            AB_CASES=os.path.join(tmp, "no-such-list.txt")),
                   capture_output=True, text=True, timeout=60)
with open(os.path.join(missing_out, "steps.txt")) as f:
    check(f.read().startswith("ab 4"), "a missing AB_CASES file: exit 4 in steps.txt")
check("is not a file of case ids" in p.stdout, f"AB_CASES missing says why: {p.stdout[-300:]}")
with open(os.path.join(cases_dir, "calls")) as f:
    check(len(f.read().splitlines()) == 2, "nothing ran for a missing AB_CASES file")

# AB_JUDGE=pair (issue 12 item 5): the pair is judged on the subset with AB_MIN_GAIN (default 1)
# and the fused kernel with no gain asked. A pair 2-4 % faster with the fused kernel level is
# adopted; one whose pair gains 0.3 % is not (under 1 %); one whose fused kernel got 5-8 % slower
# is not, whatever its pair gains. Without AB_JUDGE the same builds are judged the usual way:
# the fused kernel asked to gain, so none of them is adopted.
judge_dir = os.path.join(tmp, "judge")
build(judge_dir, 1.0)
for name, fused, pair in (("exp-pairfast", 1.0, rng.uniform(0.96, 0.98)),
                          ("exp-pairlevel", 1.0, 0.997),
                          ("exp-pairbreaks", rng.uniform(1.05, 1.08), 0.95)):
    build(os.path.join(judge_dir, name), fused)
    with open(os.path.join(judge_dir, name, "pair_factor"), "w") as f:
        f.write(repr(pair))
    with open(os.path.join(judge_dir, name, "subset.txt"), "w") as f:
        f.write("".join(i + "\n" for i in listed[:3]))
for judge, want in (("pair", ["exp-pairbreaks fused 1 pair 0", "exp-pairfast fused 0 pair 0",
                              "exp-pairlevel fused 0 pair 1"]),
                    ("", ["exp-pairbreaks fused 1 pair 0", "exp-pairfast fused 1 pair 0",
                          "exp-pairlevel fused 1 pair 0"])):
    judge_out = os.path.join(tmp, f"judge-out-{judge or 'fused'}")
    p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                       env=dict(env, OUT=judge_out, BIN=judge_dir, AB_CASES=cases_file,
                                AB_JUDGE=judge, AB_BASE_AGAIN="0"),
                       capture_output=True, text=True, timeout=300)
    check(p.returncode in (0, 1), f"AB_JUDGE={judge!r} ab exit {p.returncode}: {p.stdout[-600:]}")
    with open(os.path.join(judge_out, "ab-decisions.txt")) as f:
        got = sorted(f.read().splitlines())
    check(got == want, f"AB_JUDGE={judge!r}: {got}")
with tarfile.open(os.path.join(tmp, "judge-out-pair", "ab.tar.gz")) as t:
    text = t.extractfile("ab/decision-exp-pairfast-pair.txt").read().decode()
check("subset: 3 cases judged" in text and "(rule: >= 1 % faster)" in text,
      f"AB_JUDGE=pair judges the pair on the subset, 1 %: {text[-300:]}")

# AB_ROUNDS=2: base, experiment, base, experiment (no third base run), each experiment judged on
# both of its runs joined: a build 8-12 % faster in its first run and 0-2 % in its second is
# judged on their geometric mean, not on either run. AB_ROUNDS=3 is refused in one line, exit 4.
rounds_dir = os.path.join(tmp, "rounds")
build(rounds_dir, 1.0)
first, second = rng.uniform(0.88, 0.92), rng.uniform(0.98, 1.0)
build(os.path.join(rounds_dir, "exp-twice"), first)
with open(os.path.join(rounds_dir, "exp-twice", "factor_again"), "w") as f:
    f.write(repr(second))
order_file = os.path.join(tmp, "rounds-order.txt")
rounds_out = os.path.join(tmp, "rounds-out")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                   env=dict(env, OUT=rounds_out, BIN=rounds_dir, AB_CASES=cases_file,
                            AB_ROUNDS="2", RKV_TEST_ORDER=order_file),
                   capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"AB_ROUNDS=2 ab exit {p.returncode}: {p.stdout[-600:]}")
with open(order_file) as f:
    order = f.read().split()
check(order == ["rounds", "exp-twice", "rounds", "exp-twice"],
      f"AB_ROUNDS=2 runs base, experiment, base, experiment: {order}")
with tarfile.open(os.path.join(rounds_out, "ab.tar.gz")) as t:
    names = set(t.getnames())
    for want in ("ab/base-cases.json", "ab/base-cases-again.json", "ab/exp-twice-cases.json",
                 "ab/exp-twice-cases-r2.json"):
        check(want in names, f"{want} in ab.tar.gz: {sorted(names)}")
    text = t.extractfile("ab/decision-exp-twice.txt").read().decode()
joined = 100 * (1 - (first * second) ** 0.5)
check(f"judged geometric mean: {joined:.2f} % faster" in text,
      f"AB_ROUNDS=2 judges both runs joined ({joined:.2f} %): {text[-300:]}")
bad_out = os.path.join(tmp, "rounds-bad")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "ab"],
                   env=dict(env, OUT=bad_out, BIN=rounds_dir, AB_CASES=cases_file, AB_ROUNDS="3"),
                   capture_output=True, text=True, timeout=60)
with open(os.path.join(bad_out, "steps.txt")) as f:
    check(f.read().startswith("ab 4"), "AB_ROUNDS=3: exit 4 in steps.txt")
check("AB_ROUNDS '3' is not 1 or 2" in p.stdout, f"AB_ROUNDS=3 says why: {p.stdout[-300:]}")

# Without ab's decisions in $OUT, `adopted` refuses in one line, exit 4, and runs nothing.
lone = os.path.join(tmp, "lone")
p = subprocess.run(["bash", os.path.join(SOURCE, "scripts", "device_run.sh"), "adopted"],
                   env=dict(env, OUT=lone), capture_output=True, text=True, timeout=60)
with open(os.path.join(lone, "steps.txt")) as f:
    check(f.read().startswith("adopted 4"), "adopted without ab: exit 4 in steps.txt")
check("run ab first" in p.stdout, f"adopted without ab says why: {p.stdout[-300:]}")
# scripts/ab_call.sh: the same builds packed as a device call carries them, unpacked in the call's
# folder; one A/B into OUT/NAME, packed as NAME.tar.gz with the decisions, adopted.txt and the
# validation inside, and nothing else left in OUT.
pack = os.path.join(tmp, "pack.tar.xz")
with tarfile.open(pack, "w:xz") as t:
    t.add(bin_dir, arcname="packed")
work, call_out = os.path.join(tmp, "work"), os.path.join(tmp, "call-out")
os.makedirs(work)
call = [os.path.join(SOURCE, "scripts", "ab_call.sh"), pack, "packed", "c9"]
p = subprocess.run(["bash"] + call, cwd=work, env=dict(env, OUT=call_out, AB_CONFIGS="decode"),
                   capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"ab_call exit {p.returncode}: {p.stdout[-600:]} {p.stderr[-600:]}")
check(sorted(os.listdir(call_out)) == ["c9.tar.gz"], f"only c9.tar.gz left: {os.listdir(call_out)}")
with tarfile.open(os.path.join(call_out, "c9.tar.gz")) as t:
    names = set(t.getnames())
    for want in ("c9/ab.tar.gz", "c9/ab-decisions.txt", "c9/adopted.txt",
                 "c9/validate-full-matrix.json"):
        check(want in names, f"{want} in c9.tar.gz: {sorted(names)}")
    check(t.extractfile("c9/adopted.txt").read().decode().strip() == "exp-fast",
          "ab_call adopts as device_run does")
for args, why in (([], "usage"), ([pack, "packed"], "usage"),
                  ([os.path.join(tmp, "none.tar.xz"), "packed", "c9"], "no file"),
                  ([pack, "elsewhere", "c9"], "holds no elsewhere/rope-kv-bench"),
                  ([pack, "packed", "c 9"], "is not letters")):
    p = subprocess.run(["bash", call[0]] + args, cwd=work, env=dict(env, OUT=call_out),
                       capture_output=True, text=True, timeout=60)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 4 and len(lines) == 1 and why in lines[0],
          f"ab_call {args}: exit {p.returncode}, stderr {p.stderr!r}")
print("device_run ab: all checks passed")
