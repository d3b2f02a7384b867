#!/usr/bin/env python3
"""The kernel A/B rule (results/NOTES.md) over bench reports of a base and an experiment build.

    scripts/ab_compare.py --base BASE.json [--base BASE-AGAIN.json] --exp EXP.json
                          [--subset IDS.txt | --subset moved] [--only IDS.txt]
                          [--max-slower PCT] [--min-gain PCT | --no-gain-asked]
                          [--variant NAME]

Each of BASE, BASE-AGAIN and EXP may be several reports of one run joined by commas (an A/B over
several configs: scripts/device_run.sh ab writes one report per config); a case that two of them
measured (configs overlap) counts with the geometric mean of its medians.

Per case (id and mode) found in every report: the variant's median in the base runs (their
geometric mean when the base ran twice, with the drift between the two), the experiment's, and
the change in percent; the pair's change beside it, since a kernel change must not move the pair.
Then the verdict of the rule: no case more than --max-slower percent slower (default 2), and the
geometric mean over --subset's case ids (one per line; every case when absent) at least
--min-gain percent faster (default 1). Cases slower by more than --max-slower but at most twice
that are listed for the confirmation re-run (5 passes, exp / base / exp) instead of failing.
--no-gain-asked leaves the per-case limit alone to decide: the pair's check, where a change that
is not about the pair must not slow it and cannot be asked to speed it up (with --min-gain 0 an
untouched pair fails on noise half the time).

--only leaves every case not listed (one id per line) out of the comparison altogether: the
per-case limit, the mean and the launch line see only the listed ones. It is for a round derived
from another build's run: a build that launches the measured experiment's kernel on the listed
cases (the same instantiation, the same grid) and the base's everywhere else is judged on those
cases of the experiment's reports, since its other launches are the base's own (session 55: round
66 launches round 64's kernel only from two waves).

Where both the base's (first) and the experiment's reports record the fused kernel's launch
(cases[].fused_launch: bench reports from session 19 on), a case whose kernel, unit order or CTA
count differs is marked "launch: BASE -> EXP", and the judged cases whose launch did not move are
counted: a change of launch route or grid should move the cases its prediction names (a change of
a kernel's code moves none of these, so this is information, not part of the verdict).
`--subset moved` judges exactly the cases whose launch moved: for a routing change, the subset is
then fixed by the two builds before anything is timed, not picked after (session 20: twice a
routing A/B's decision judged every case because no subset file was written beside the patch).
Both reports must record launches; a run in which no launch moved is rejected.

Where the first base run's reports record each case's share of the card's measured copy bandwidth
(cases[].fused_pct_of_bandwidth), the judged cases that ran the base at --bandwidth-bound percent
or more (default 90) are counted on a "headroom" line, with the card's name: there the base
already moves about as many bytes as the card can, so a change that adds bytes in flight has
little room to show, and a card with more bandwidth may judge it otherwise (session 35: the token
warp for 16-bit caches was level on an H100, where its base ran at 90-93 %, and aimed at an H200
where the same kernel runs at 75-78 %). Information, like the launch line, not the verdict; only
for the fused variant (the shares are its own).

Exit 0: adopt; 1: reject; 3: adopt only if the listed cases pass the confirmation;
2 (one line on stderr): a report or the subset file cannot be read, or no case is common to all.
"""
import argparse
import math
import sys

from report_json import fail_input, load_report


def load_medians(paths, variant):
    """{(id, mode): (variant median us, pair median us or None)} of one run: one report, or
    several joined by commas."""
    measured = {}
    for path in paths.split(","):
        for key, value in load_report_medians(path, variant).items():
            measured.setdefault(key, []).append(value)
    medians = {}
    for key, values in measured.items():
        pairs = [pair for _, pair in values]
        medians[key] = (geomean([v for v, _ in values]),
                        geomean(pairs) if all(pairs) else None)
    return medians


def load_report_medians(path, variant):
    cases = load_report("ab_compare", path)["cases"]
    medians = {}
    for case in cases:
        by_name = {v.get("variant"): v.get("median_us") for v in case.get("variants") or []
                   if isinstance(v, dict)}
        value = by_name.get(variant)
        if not isinstance(value, (int, float)) or not value > 0:
            continue  # not timed (validation failed, or an incomplete report)
        pair = by_name.get("pair")
        pair = pair if isinstance(pair, (int, float)) and pair > 0 else None
        medians[(case.get("id"), case.get("mode"))] = (float(value), pair)
    return medians


def load_launches(paths):
    """{(id, mode): "kernel[ roles] xCTAS"} of the cases whose report records the fused launch
    (the first report that does, where several are joined by commas)."""
    launches = {}
    for path in paths.split(","):
        for case in load_report("ab_compare", path)["cases"]:
            launch = case.get("fused_launch")
            if isinstance(launch, dict):
                text = (f"{launch.get('kernel')}{' roles' if launch.get('role_major') else ''}"
                        f"{' compact' if launch.get('compact') else ''} x{launch.get('ctas')}")
                launches.setdefault((case.get("id"), case.get("mode")), text)
    return launches


def load_bandwidth_shares(paths):
    """({(id, mode): percent of the card's copy bandwidth the fused median reached}, card name)
    of one run: one report, or several joined by commas (the first that records a case counts;
    the card is the first report's)."""
    shares, card = {}, None
    for i, path in enumerate(paths.split(",")):
        report = load_report("ab_compare", path)
        for case in report["cases"]:
            share = case.get("fused_pct_of_bandwidth")
            if isinstance(share, (int, float)) and share > 0:
                shares.setdefault((case.get("id"), case.get("mode")), float(share))
        device = report.get("device")
        if i == 0 and isinstance(device, dict) and isinstance(device.get("name"), str):
            card = device["name"]
    return shares, card


def load_subset(path):
    try:
        with open(path, encoding="utf-8") as f:
            return {line.strip() for line in f if line.strip() and not line.startswith("#")}
    except OSError as e:
        fail_input("ab_compare", path, e.strerror or str(e))


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def pct(new, old):
    return 100.0 * (new / old - 1.0)


def geomean_pct(ratios):
    return 100.0 * (math.exp(sum(math.log(r) for r in ratios) / len(ratios)) - 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", action="append", required=True, help="base report (once or twice)")
    ap.add_argument("--exp", required=True, help="experiment report")
    ap.add_argument("--subset", help="file of case ids the gain is judged on, or 'moved': the "
                    "cases whose fused launch differs between base and experiment")
    ap.add_argument("--only", help="file of case ids: compare these cases alone, every other "
                    "case left out (a round derived from the experiment's run)")
    ap.add_argument("--max-slower", type=float, default=2.0, help="percent (default 2)")
    gain_rule = ap.add_mutually_exclusive_group()
    gain_rule.add_argument("--min-gain", type=float, default=1.0, help="percent (default 1)")
    gain_rule.add_argument("--no-gain-asked", action="store_true",
                           help="judge only the per-case limit, not the mean")
    ap.add_argument("--variant", default="fused", help="variant compared (default fused)")
    ap.add_argument("--bandwidth-bound", type=float, default=90.0,
                    help="percent of copy bandwidth from which a judged case's base counts on "
                    "the headroom line (default 90)")
    args = ap.parse_args()
    if len(args.base) > 2:
        ap.error("--base at most twice")

    bases = [load_medians(p, args.variant) for p in args.base]
    exp = load_medians(args.exp, args.variant)
    keys = [k for k in exp if all(k in b for b in bases)]
    if not keys:
        fail_input("ab_compare", args.exp, "no case in common with the base report(s)")
    if args.only:
        only = load_subset(args.only)
        measured = len(keys)
        keys = [k for k in keys if k[0] in only]
        if not keys:
            fail_input("ab_compare", args.only, "no listed case is in both the base and the "
                       "experiment reports")
        missing = len(only - {k[0] for k in keys})
        print(f"only: {len(keys)} of {measured} measured cases compared ({args.only})" +
              (f"; {missing} listed but not measured" if missing else ""))
    base_launch, exp_launch = load_launches(args.base[0]), load_launches(args.exp)
    if args.subset == "moved":
        if not any(k in base_launch and k in exp_launch for k in keys):
            fail_input("ab_compare", args.exp,
                       "--subset moved: the reports do not record the fused launch "
                       "(cases[].fused_launch, bench reports from session 19 on)")
        subset = {k[0] for k in keys
                  if k in base_launch and k in exp_launch and base_launch[k] != exp_launch[k]}
        if not subset:
            print("verdict: reject (--subset moved: no case's launch moved)")
            return 1
    else:
        subset = load_subset(args.subset) if args.subset else None
    moved, judged_unmoved = [], []
    # The shares are the fused kernel's: another variant (the pair) gets no headroom line.
    shares, card = (load_bandwidth_shares(args.base[0]) if args.variant == "fused" else ({}, None))
    judged_keys = []

    print(f"{'case':52s} {'mode':5s} {'base us':>9s} {'exp us':>9s} {'change':>7s} "
          f"{'base drift':>10s} {'pair':>6s}")
    ratios, judged, slower, confirm = [], [], [], []
    for key in keys:
        base = math.exp(sum(math.log(b[key][0]) for b in bases) / len(bases))
        drift = f"{pct(bases[1][key][0], bases[0][key][0]):+.1f} %" if len(bases) == 2 else "-"
        ratio = exp[key][0] / base
        pair_base, pair_exp = bases[0][key][1], exp[key][1]
        pair = f"{pct(pair_exp, pair_base):+.1f}" if pair_base and pair_exp else "-"
        change = 100.0 * (ratio - 1.0)
        mark = ""
        if change > 2 * args.max_slower:
            slower.append(key)
            mark = "  SLOWER"
        elif change > args.max_slower:
            confirm.append(key)
            mark = "  confirm"
        in_subset = subset is None or key[0] in subset
        if in_subset:
            judged.append(ratio)
            judged_keys.append(key)
        ratios.append(ratio)
        launch = ""
        if key in base_launch and key in exp_launch:
            if base_launch[key] != exp_launch[key]:
                moved.append(key)
                launch = f"  launch: {base_launch[key]} -> {exp_launch[key]}"
            elif subset is not None and in_subset:
                judged_unmoved.append(key)
        print(f"{key[0]:52s} {str(key[1]):5s} {base:9.2f} {exp[key][0]:9.2f} {change:+6.1f}% "
              f"{drift:>10s} {pair:>6s}{mark}{'' if in_subset else '  (not judged)'}{launch}")

    print(f"\n{len(keys)} cases; geometric mean change {geomean_pct(ratios):+.2f} %")
    if subset is not None:
        missing = sorted(subset - {k[0] for k in keys})
        print(f"subset: {len(judged)} cases judged" +
              (f", {len(missing)} listed but not measured" if missing else ""))
    if any(k in base_launch and k in exp_launch for k in keys):
        print(f"launch: moved in {len(moved)} case(s)" +
              (f"; {len(judged_unmoved)} judged case(s) kept theirs" if subset is not None else ""))
    bound = [k for k in judged_keys if shares.get(k, 0.0) >= args.bandwidth_bound]
    if bound:
        low, high = min(shares[k] for k in bound), max(shares[k] for k in bound)
        spread = f"{low:.0f}" if round(low) == round(high) else f"{low:.0f}-{high:.0f}"
        print(f"headroom: {len(bound)} of {len(judged_keys)} judged case(s) ran the base at "
              f"{spread} % of {card or 'this card'}'s copy bandwidth (>= "
              f"{args.bandwidth_bound:g} %): a change that adds bytes in flight has little room "
              "to show on this card")
    if not judged:
        print("verdict: reject (no judged case was measured)")
        return 1
    gain = -geomean_pct(judged)
    worst = max(keys, key=lambda k: exp[k][0] / math.exp(
        sum(math.log(b[k][0]) for b in bases) / len(bases)))
    rule = "none asked" if args.no_gain_asked else f"rule: >= {args.min_gain:g} % faster"
    print(f"judged geometric mean: {abs(gain):.2f} % {'faster' if gain >= 0 else 'slower'} "
          f"({rule}); worst case {worst[0]} ({worst[1]}), of all {len(keys)} cases, canaries "
          "included")
    too_little = not args.no_gain_asked and gain < args.min_gain
    if slower or too_little:
        why = []
        if slower:
            why.append(f"{len(slower)} case(s) more than {2 * args.max_slower:g} % slower")
        if too_little:
            why.append("too little gain")
        print("verdict: reject (" + "; ".join(why) + ")")
        return 1
    if confirm:
        print(f"verdict: confirm {len(confirm)} case(s) {args.max_slower:g}-"
              f"{2 * args.max_slower:g} % slower with 5 passes (exp / base / exp) before adopting")
        return 3
    print("verdict: adopt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
