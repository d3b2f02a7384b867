#!/usr/bin/env python3
"""scripts/never_slower_shards.sh with a stand-in rope-kv-bench (no GPU): the shards named run
in order, each report lands under OUT/TAG/ns/ with the shard it was asked for, shards.txt lists
them, and OUT/TAG.tar.gz holds all of it; a failing shard is logged and the next one still runs;
a shard that no longer fits the call is not started; bad arguments exit 4 with one line."""
import os
import random
import stat
import subprocess
import sys
import tarfile
import tempfile

from script_checks import check

SOURCE = sys.argv[1]
SCRIPT = os.path.join(SOURCE, "scripts", "never_slower_shards.sh")
tmp = tempfile.mkdtemp()
token = "t%d" % random.randrange(1 << 30)  # fresh in every run: the reports are the stand-in's

# The stand-in writes {"shard": "K/N", "token": ...} to --json FILE; shard 3 fails (exit 2), as
# bench does on a mismatch, after writing its report.
bin_dir = os.path.join(tmp, "bin")
os.makedirs(bin_dir)
fake = os.path.join(bin_dir, "rope-kv-bench")
with open(fake, "w") as f:
    f.write("""#!/usr/bin/env bash
shard="" json=""
while (($#)); do
  case $1 in --shard) shard=$2; shift ;; --json) json=$2; shift ;; esac
  shift
done
printf '{"shard": "%s", "token": "TOKEN"}\\n' "$shard" >"$json"
echo "ran shard $shard"
[[ $shard == 3/* ]] && exit 2
exit 0
""".replace("TOKEN", token))
os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)


def run(*args, **env):
    e = dict(os.environ, **{k: str(v) for k, v in env.items()})
    p = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


out = os.path.join(tmp, "out")
rc, stdout, err = run(out, "call6", bin_dir, "2", "3", "5")
check(rc == 0, f"three shards: exit 0 (rc {rc}, {err!r})")
work = os.path.join(out, "call6")
with open(os.path.join(work, "shards.txt")) as f:
    check(f.read().split() == ["2", "3", "5"], "shards.txt lists the shards run, in order")
for k in (2, 3, 5):
    report = os.path.join(work, "ns", f"never-slower-shard-{k}-of-8.json")
    check(os.path.exists(report), f"shard {k}'s report is under ns/")
    with open(report) as f:
        text = f.read()
    check(f'"shard": "{k}/8"' in text and token in text, f"shard {k} ran as {k}/8: {text!r}")
# device_run.sh exits 1 when a step fails (the step's own exit is in its log).
check("shard 3: exit 1" in stdout and "shard 2: exit 0" in stdout and "shard 5: exit 0" in stdout,
      f"a failing shard is logged and the next runs: {stdout!r}")
with open(os.path.join(work, "log.txt")) as f:
    check("=== never-slower: exit 2" in f.read(), "the log holds the step's own exit")
tarball = os.path.join(out, "call6.tar.gz")
check(os.path.exists(tarball) and not os.path.exists(tarball + ".tmp"),
      "the call's folder is packed, with no temporary left")
with tarfile.open(tarball) as t:
    names = set(t.getnames())
check({"call6/shards.txt", "call6/ns/never-slower-shard-5-of-8.json"} <= names,
      f"the tarball holds the last shard and shards.txt: {sorted(names)}")

# Four shards of four: NS_SHARDS is passed on.
rc, stdout, err = run(out, "four", bin_dir, "4", NS_SHARDS=4)
with open(os.path.join(out, "four", "ns", "never-slower-shard-4-of-4.json")) as f:
    check(rc == 0 and '"shard": "4/4"' in f.read(), "NS_SHARDS sets N")

# No time left for a shard: nothing starts, and the log says so.
rc, stdout, err = run(out, "late", bin_dir, "1", CALL_LIMIT_S=50, SHARD_S=100)
check(rc == 0 and "shard 1: not started" in stdout, f"a shard that does not fit is skipped: {stdout!r}")
check(not os.path.exists(os.path.join(out, "late", "shards.txt")), "and is not listed as run")

# Bad arguments: exit 4, one line, nothing run.
for args, env, what in [
    ((out, "bad", bin_dir, "9"), {}, "a shard past NS_SHARDS"),
    ((out, "bad", bin_dir, "0"), {}, "shard 0"),
    ((out, "bad", bin_dir, "x"), {}, "a shard that is not a number"),
    ((out, "bad/tag", bin_dir, "1"), {}, "a TAG with a slash"),
    ((out, "bad", os.path.join(tmp, "nobin"), "1"), {}, "no rope-kv-bench"),
    ((out, "bad", bin_dir), {}, "no shard"),
    ((out, "bad", bin_dir, "1"), {"SHARD_S": "ten"}, "a SHARD_S that is not a number"),
]:
    rc, stdout, err = run(*args, **env)
    check(rc == 4 and len(err.strip().splitlines()) == 1 or (rc == 4 and what == "no shard"),
          f"{what}: exit 4 with one line (rc {rc}, {err!r})")
    check(not os.path.exists(os.path.join(out, "bad", "shards.txt")), f"{what}: nothing run")
print("never_slower_shards: shards, packing, time budget and bad arguments as documented")
