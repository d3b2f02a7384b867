#include "gate/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "gate/preflight.h"

namespace rkv {
namespace {

using Key = std::pair<std::string, std::string>;  // (id, mode)

// The rule's view of one variant: the statistics, and the raw samples of every pass when the
// report kept them (bench --samples), with which the rule uses the rank test.
TimeSamples time_samples(const VariantResult& v) {
  TimeSamples t;
  t.pooled = v.us;
  t.passes = v.passes;
  for (const std::vector<double>& pass : v.raw_us)
    t.raw.insert(t.raw.end(), pass.begin(), pass.end());
  return t;
}

std::optional<GateResult> gate_one(Gated g, const CaseResult& b, const CaseResult& c, Boards boards,
                                   const RuleParams& rule, std::string& missing) {
  GateResult r;
  r.what = g;
  if (g == Gated::speedup) {
    if (!b.speedup || !c.speedup) {
      missing = "no speedup in both runs";
      return std::nullopt;
    }
    r.baseline = b.speedup->median;
    r.current = c.speedup->median;
    r.judgement = judge_speedup(*b.speedup, *c.speedup, rule);
    return r;
  }
  const std::string name = to_string(g);
  const Variant variant = g == Gated::pair ? Variant::pair : Variant::fused;
  const VariantResult* bv = b.find_variant(variant);
  const VariantResult* cv = c.find_variant(variant);
  if (!bv || !cv || bv->us.n == 0 || cv->us.n == 0) {
    missing = name + " not timed in both runs";
    return std::nullopt;
  }
  r.baseline = bv->us.median;
  r.current = cv->us.median;
  r.judgement = judge_time(time_samples(*bv), time_samples(*cv), b.spec.tokens, boards, rule);
  return r;
}

// The verdict of a list of gate results: any slower makes a regression, then noted, then win.
Verdict fold(const std::vector<GateResult>& gates) {
  auto any = [&](Change ch) {
    return std::any_of(gates.begin(), gates.end(),
                       [&](const GateResult& g) { return g.judgement.change == ch; });
  };
  if (any(Change::slower)) return Verdict::regression;
  if (any(Change::noted)) return Verdict::noted;
  if (any(Change::faster)) return Verdict::win;
  return Verdict::pass;
}

std::string disposition_text(const CaseResult& c) {
  std::string s = to_string(c.validation);
  if (c.mismatches > 0) s += fmt::format(", {} mismatches", c.mismatches);
  if (!c.first_mismatch.empty()) return s + ", first at " + c.first_mismatch;
  if (!c.detail.empty()) s += ": " + c.detail;
  return s;
}

std::vector<GateResult> gate_case(const CaseResult& b, const CaseResult& c, Boards boards,
                                  const CompareOptions& o, std::vector<std::string>& notes) {
  std::vector<GateResult> gates;
  for (Gated g : o.gate) {
    std::string missing;
    if (auto r = gate_one(g, b, c, boards, o.rule, missing))
      gates.push_back(std::move(*r));
    else
      notes.push_back(missing);
  }
  return gates;
}

CaseComparison compare_case(const CaseResult& b, const CaseResult& c, Boards boards,
                            const CompareOptions& o) {
  CaseComparison cmp;
  cmp.id = c.id;
  cmp.mode = c.mode;
  if (c.validation != Disposition::passed) {
    cmp.verdict = Verdict::not_passed;
    cmp.notes.push_back(disposition_text(c));
    return cmp;
  }
  if (b.validation != Disposition::passed) {
    cmp.verdict = Verdict::added;  // nothing measured to compare with
    cmp.notes.push_back("the baseline has no timing: " + to_string(b.validation));
    return cmp;
  }
  cmp.gates = gate_case(b, c, boards, o, cmp.notes);
  cmp.verdict = fold(cmp.gates);
  if (boards == Boards::may_differ) cmp.machine_allowance = o.rule.machine_allowance(b.spec.tokens);
  for (const GateResult& g : cmp.gates)
    if (g.judgement.change != Change::none)
      cmp.notes.push_back(to_string(g.what) + " " + g.judgement.why);
  return cmp;
}

// A regression of the current run meets its re-run: it stays one only if the re-run agrees.
void confirm(CaseComparison& cmp, const CaseResult& b, const CaseResult* again, Boards boards,
             const CompareOptions& o) {
  if (!again) {
    cmp.notes.push_back("not in the re-run: unconfirmed, still failing");
    return;
  }
  if (again->validation != Disposition::passed) {
    cmp.verdict = Verdict::not_passed;
    cmp.notes.push_back("re-run: " + disposition_text(*again));
    return;
  }
  std::vector<std::string> notes;
  cmp.rerun_gates = gate_case(b, *again, boards, o, notes);
  if (fold(cmp.rerun_gates) == Verdict::regression) {
    cmp.notes.push_back("confirmed by the re-run");
  } else {
    cmp.verdict = Verdict::unconfirmed;
    cmp.notes.push_back("the re-run did not confirm it");
  }
  for (const GateResult& g : cmp.rerun_gates)
    cmp.notes.push_back("re-run " + to_string(g.what) + " " + g.judgement.why);
}

// Whether each run's interval centre (the pooled median in reports before pass_spread_machine)
// lies inside the other run's interval; nothing when either is missing.
std::optional<bool> within_each_others_interval(const std::optional<SpeedupEstimate>& a,
                                                const std::optional<SpeedupEstimate>& b) {
  if (!a || !b) return std::nullopt;
  const double ca = a->interval_center(), cb = b->interval_center();
  if (!std::isfinite(ca) || !std::isfinite(cb)) return std::nullopt;
  return a->lo <= cb && cb <= a->hi && b->lo <= ca && ca <= b->hi;
}

std::map<Key, const CaseResult*> by_key(const Report& r) {
  std::map<Key, const CaseResult*> m;
  for (const CaseResult& c : r.cases)
    m.emplace(Key{c.id, c.mode}, &c);
  return m;
}

CompareOutcome refused(CompareOutcome out, CompareExit code, std::string message) {
  out.exit = code;
  out.message = std::move(message);
  out.cases.clear();
  return out;
}

}  // namespace

std::string to_string(Gated g) {
  switch (g) {
    case Gated::fused:
      return "fused";
    case Gated::pair:
      return "pair";
    case Gated::speedup:
      return "speedup";
  }
  return "fused";
}

std::optional<Gated> parse_gated(const std::string& text) {
  for (Gated g : {Gated::fused, Gated::pair, Gated::speedup})
    if (text == to_string(g)) return g;
  return std::nullopt;
}

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "pass";
    case Verdict::win:
      return "win";
    case Verdict::noted:
      return "noted";
    case Verdict::unconfirmed:
      return "unconfirmed";
    case Verdict::accepted:
      return "accepted";
    case Verdict::regression:
      return "regression";
    case Verdict::missing:
      return "missing";
    case Verdict::added:
      return "added";
    case Verdict::not_passed:
      return "not passed";
  }
  return "pass";
}

bool fails_gate(Verdict v, bool allow_missing) {
  return v == Verdict::regression || v == Verdict::not_passed ||
         (v == Verdict::missing && !allow_missing);
}

RunInfo run_info(const Report& r) {
  return RunInfo{r.git_revision, r.created_utc, r.tool_version, r.device};
}

int CompareOutcome::count(Verdict v) const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(),
                                        [&](const CaseComparison& c) { return c.verdict == v; }));
}

CompareOutcome compare_reports(const Report& baseline, const Report& current,
                               const CompareOptions& o, const Report* rerun) {
  CompareOutcome out;
  out.baseline = run_info(baseline);
  out.current = run_info(current);
  out.gate = o.gate;
  out.rule = o.rule;
  out.allow_missing = o.allow_missing;
  out.rerun = rerun != nullptr;
  out.machine_allowance_mode = o.machine_allowance;
  const AllowanceDecision allowance =
      decide_machine_allowance(o.machine_allowance, baseline.device, current.device, o.rule);
  out.same_gpu = allowance.same_gpu;
  out.machine_allowance_applies = allowance.applies;
  out.machine_allowance_why = allowance.why;
  const Boards boards = allowance.boards();
  // The re-run is judged against the baseline as well: by its own GPU's uuid. ci-gate.sh re-runs
  // on the current run's runner, so the two agree unless the re-run came from elsewhere.
  Boards rerun_boards = boards;
  if (rerun) {
    const AllowanceDecision again =
        decide_machine_allowance(o.machine_allowance, baseline.device, rerun->device, o.rule);
    rerun_boards = again.boards();
    if (rerun_boards != boards)
      out.warnings.push_back("re-run against the baseline: " + again.why +
                             " (the current run was judged otherwise)");
  }

  for (const auto& [other, what] :
       {std::pair<const Report*, std::string>{&current, "current"}, {rerun, "re-run"}}) {
    if (!other) continue;
    Preflight p = preflight(baseline, *other, what, o.force);
    if (p.refusal) return refused(out, *p.refusal, p.message);
    for (std::string& w : p.warnings)
      out.warnings.push_back(std::move(w));
  }
  std::set<std::string> ids;
  for (const Report* r : {&baseline, &current})
    for (const CaseResult& c : r->cases)
      ids.insert(c.id);
  for (const std::string& a : o.accept)
    if (!ids.count(a))
      return refused(out, CompareExit::usage, "--accept: '" + a + "' is in neither report");

  const auto current_by_key = by_key(current);
  const auto rerun_by_key = rerun ? by_key(*rerun) : std::map<Key, const CaseResult*>{};
  std::set<Key> in_baseline;
  int matched = 0;
  for (const CaseResult& b : baseline.cases) {
    const Key key{b.id, b.mode};
    in_baseline.insert(key);
    const auto it = current_by_key.find(key);
    if (it == current_by_key.end()) {
      CaseComparison c;
      c.id = b.id;
      c.mode = b.mode;
      c.verdict = Verdict::missing;
      c.notes.push_back("in the baseline, not in the current run");
      out.cases.push_back(std::move(c));
      continue;
    }
    ++matched;
    if (const auto within = within_each_others_interval(b.speedup, it->second->speedup)) {
      ++out.speedups_compared;
      out.speedups_within_intervals += *within;
    }
    CaseComparison c = compare_case(b, *it->second, boards, o);
    if (rerun && c.verdict == Verdict::regression) {
      const auto again = rerun_by_key.find(key);
      confirm(c, b, again == rerun_by_key.end() ? nullptr : again->second, rerun_boards, o);
    }
    if (c.verdict == Verdict::regression &&
        std::find(o.accept.begin(), o.accept.end(), c.id) != o.accept.end()) {
      c.verdict = Verdict::accepted;
      c.notes.push_back("accepted (--accept)");
    }
    out.cases.push_back(std::move(c));
  }
  for (const CaseResult& cur : current.cases) {
    if (in_baseline.count(Key{cur.id, cur.mode})) continue;
    CaseComparison c;
    c.id = cur.id;
    c.mode = cur.mode;
    c.verdict = cur.validation == Disposition::passed ? Verdict::added : Verdict::not_passed;
    c.notes.push_back(cur.validation == Disposition::passed ? "not in the baseline"
                                                            : disposition_text(cur));
    out.cases.push_back(std::move(c));
  }
  if (matched == 0 && !current.cases.empty())
    return refused(out, CompareExit::usage,
                   "no case of the current run is in the baseline (cases match by id and mode)");

  const int failed = out.count(Verdict::not_passed);
  const int slower = out.count(Verdict::regression);
  const int missing = out.count(Verdict::missing);
  const bool interrupted = !current.complete || (rerun && !rerun->complete);
  out.exit = failed > 0                                        ? CompareExit::not_passed
             : slower > 0 || (missing > 0 && !o.allow_missing) ? CompareExit::regression
             : interrupted                                     ? CompareExit::inconclusive
                                                               : CompareExit::pass;
  const char* word = out.exit == CompareExit::not_passed     ? "FAIL (a case did not pass)"
                     : out.exit == CompareExit::regression   ? "FAIL (regression)"
                     : out.exit == CompareExit::inconclusive ? "INCONCLUSIVE (run interrupted)"
                                                             : "PASS";
  out.message =
      fmt::format("{}: {} compared, {} regression, {} missing{}, {} not passed, {} new", word,
                  matched, slower, missing, missing > 0 && o.allow_missing ? " (allowed)" : "",
                  failed, out.count(Verdict::added));
  const int wins = out.count(Verdict::win), noted = out.count(Verdict::noted);
  const int unconfirmed = out.count(Verdict::unconfirmed), accepted = out.count(Verdict::accepted);
  if (wins) out.message += fmt::format(", {} faster", wins);
  if (noted) out.message += fmt::format(", {} noted", noted);
  if (unconfirmed) out.message += fmt::format(", {} unconfirmed by the re-run", unconfirmed);
  if (accepted) out.message += fmt::format(", {} accepted", accepted);
  if (noted)
    out.warnings.push_back(fmt::format(
        "{} case(s) slower by the median but without the fastest launches or the statistics "
        "agreeing: not gated",
        noted));
  return out;
}

}  // namespace rkv
