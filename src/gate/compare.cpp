#include "gate/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace rkv {
namespace {

using Key = std::pair<std::string, std::string>;  // (id, mode)

// How bad each verdict is, for folding the gates of one case into one verdict.
int severity(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return 0;
    case Verdict::win:
      return 1;
    case Verdict::only_baseline:
      return 0;
    case Verdict::only_current:
      return 0;
    case Verdict::ambiguous:
      return 2;
    case Verdict::regression:
      return 3;
    case Verdict::validation_mismatch:
      return 4;
  }
  return 0;
}

void raise(CaseComparison& c, Verdict v, std::string note) {
  if (severity(v) > severity(c.verdict)) c.verdict = v;
  c.notes.push_back(std::move(note));
}

bool finite(const SpeedupEstimate& s) {
  return std::isfinite(s.median) && std::isfinite(s.lo) && std::isfinite(s.hi);
}

std::string x(double v) {
  return fmt::format("{:.2f}x", v);
}

void speedup_gate(const CaseResult& base, const CaseResult& cur, const CompareOptions& o,
                  CaseComparison& c) {
  const bool have_base = base.speedup && finite(*base.speedup);
  const bool have_cur = cur.speedup && finite(*cur.speedup);
  if (!have_cur) {
    if (have_base) raise(c, Verdict::ambiguous, "no speedup measured in the current run");
    return;
  }
  const SpeedupEstimate& s = *cur.speedup;
  if (have_base) {
    const double b = base.speedup->median;
    const double low = b * (1 - o.speedup_tolerance);
    const double high = b * (1 + o.speedup_tolerance);
    if (s.hi < low)
      raise(c, Verdict::regression,
            fmt::format("speedup {} [{:.2f}, {:.2f}] below baseline {} - {:.0f}%", x(s.median),
                        s.lo, s.hi, x(b), o.speedup_tolerance * 100));
    else if (s.median < low)
      raise(c, Verdict::ambiguous,
            fmt::format("speedup {} below baseline {} - {:.0f}%, but its interval reaches it",
                        x(s.median), x(b), o.speedup_tolerance * 100));
    else if (s.lo > high)
      raise(c, Verdict::win,
            fmt::format("speedup {} [{:.2f}, {:.2f}] above baseline {}", x(s.median), s.lo, s.hi,
                        x(b)));
  }
  if (o.min_speedup > 0) {
    if (s.hi < o.min_speedup)
      raise(c, Verdict::regression,
            fmt::format("speedup {} [{:.2f}, {:.2f}] below the floor {}", x(s.median), s.lo, s.hi,
                        x(o.min_speedup)));
    else if (s.median < o.min_speedup)
      raise(c, Verdict::ambiguous,
            fmt::format("speedup {} below the floor {}, but its interval reaches it", x(s.median),
                        x(o.min_speedup)));
  }
}

void fused_time_gate(const Summary& b, const Summary& cur, const CompareOptions& o,
                     CaseComparison& c) {
  const double diff = cur.median - b.median;
  const std::string text = fmt::format(
      "fused {:.2f} us [{:.2f}, {:.2f}] vs baseline {:.2f} us "
      "[{:.2f}, {:.2f}]",
      cur.median, cur.q1, cur.q3, b.median, b.q1, b.q3);
  if (diff > o.max_slowdown_us) {
    if (cur.q1 > b.q3)
      raise(c, Verdict::regression, text + ": slower");
    else
      raise(c, Verdict::ambiguous, text + ": slower by the median, ranges overlap");
  } else if (-diff > o.max_slowdown_us && cur.q3 < b.q1) {
    raise(c, Verdict::win, text + ": faster");
  }
}

bool fails_validation(Disposition d) {
  return d == Disposition::incorrect || d == Disposition::failed;
}
bool measured(Disposition d) {
  return d == Disposition::passed;
}

CaseComparison compare_case(const CaseResult& base, const CaseResult& cur,
                            const CompareOptions& o) {
  CaseComparison c;
  c.id = cur.id;
  c.mode = cur.mode;
  c.baseline_speedup = base.speedup;
  c.current_speedup = cur.speedup;
  if (const VariantResult* f = base.find_variant(Variant::fused)) c.baseline_fused = f->us;
  if (const VariantResult* f = cur.find_variant(Variant::fused)) c.current_fused = f->us;

  if (fails_validation(cur.validation)) {
    raise(c, Verdict::validation_mismatch,
          to_string(cur.validation) +
              (cur.mismatches > 0 ? fmt::format(", {} mismatches", cur.mismatches) : "") +
              (!cur.first_mismatch.empty() ? ", first at " + cur.first_mismatch
               : !cur.detail.empty()       ? ": " + cur.detail
                                           : ""));
    return c;
  }
  if (!measured(cur.validation)) {
    if (measured(base.validation))
      raise(c, Verdict::ambiguous,
            "measured in the baseline, " + to_string(cur.validation) + " now" +
                (cur.detail.empty() ? "" : ": " + cur.detail));
    else
      c.notes.push_back(to_string(cur.validation) + " in both runs");
    return c;
  }
  if (!measured(base.validation)) {
    raise(c, Verdict::win, "passes now; the baseline was " + to_string(base.validation));
    return c;  // nothing trustworthy to compare the numbers with
  }
  speedup_gate(base, cur, o, c);
  if (c.baseline_fused && c.current_fused && c.baseline_fused->n > 0 && c.current_fused->n > 0)
    fused_time_gate(*c.baseline_fused, *c.current_fused, o, c);
  return c;
}

// Whether each median lies inside the other estimate's interval; nothing when either is missing.
std::optional<bool> within_each_others_interval(const std::optional<SpeedupEstimate>& a,
                                                const std::optional<SpeedupEstimate>& b) {
  if (!a || !b || !std::isfinite(a->median) || !std::isfinite(b->median)) return std::nullopt;
  return a->lo <= b->median && b->median <= a->hi && b->lo <= a->median && a->median <= b->hi;
}

}  // namespace

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "pass";
    case Verdict::win:
      return "win";
    case Verdict::ambiguous:
      return "ambiguous";
    case Verdict::regression:
      return "regression";
    case Verdict::validation_mismatch:
      return "validation mismatch";
    case Verdict::only_baseline:
      return "only in baseline";
    case Verdict::only_current:
      return "only in current";
  }
  return "unknown";
}

CompareOutcome compare_reports(const Report& baseline, const Report& current,
                               const CompareOptions& options) {
  CompareOutcome out;
  const std::string fb = baseline.device.fingerprint(), fc = current.device.fingerprint();
  if (fb != fc) {
    if (!options.force) {
      out.exit = CompareExit::usage;
      out.message = "baseline was measured on '" + fb + "', current on '" + fc +
                    "' (name|SMs|driver|CUDA): not comparable; force to compare anyway";
      return out;
    }
    out.forced_across_devices = true;
  }

  std::map<Key, const CaseResult*> current_by_key;
  for (const CaseResult& c : current.cases)
    current_by_key.emplace(Key{c.id, c.mode}, &c);
  std::map<Key, bool> in_baseline;

  Report refreshed = current;
  refreshed.cases.clear();
  refreshed.complete = baseline.complete && current.complete;
  int matched = 0;
  for (const CaseResult& b : baseline.cases) {
    const Key key{b.id, b.mode};
    in_baseline[key] = true;
    const auto it = current_by_key.find(key);
    if (it == current_by_key.end()) {
      CaseComparison c;
      c.id = b.id;
      c.mode = b.mode;
      c.verdict = Verdict::only_baseline;
      c.notes.push_back("not in the current run");
      out.cases.push_back(std::move(c));
      refreshed.cases.push_back(b);
      continue;
    }
    ++matched;
    out.cases.push_back(compare_case(b, *it->second, options));
    if (const auto within = within_each_others_interval(b.speedup, it->second->speedup)) {
      ++out.speedups_compared;
      out.speedups_within_intervals += *within;
    }
    refreshed.cases.push_back(fails_validation(it->second->validation) ? b : *it->second);
  }
  for (const CaseResult& c : current.cases) {
    if (in_baseline.count(Key{c.id, c.mode})) continue;
    CaseComparison only;
    only.id = c.id;
    only.mode = c.mode;
    only.verdict = Verdict::only_current;
    only.notes.push_back("not in the baseline (not gated; regenerate the baseline to add it)");
    out.cases.push_back(std::move(only));
  }

  if (matched == 0) {
    out.exit = CompareExit::usage;
    out.message = "no case of the current run is in the baseline (cases match by id and mode)";
    out.cases.clear();
    return out;
  }

  for (const CaseComparison& c : out.cases) {
    switch (c.verdict) {
      case Verdict::pass:
        ++out.passed;
        break;
      case Verdict::win:
        ++out.wins;
        break;
      case Verdict::ambiguous:
        ++out.ambiguous;
        break;
      case Verdict::regression:
        ++out.regressions;
        break;
      case Verdict::validation_mismatch:
        ++out.mismatches;
        break;
      case Verdict::only_baseline:
        ++out.only_baseline;
        break;
      case Verdict::only_current:
        ++out.only_current;
        break;
    }
  }
  // An interrupted run passes nothing it did not measure: at best it is ambiguous.
  out.exit = out.mismatches > 0                       ? CompareExit::validation_mismatch
             : out.regressions > 0                    ? CompareExit::regression
             : out.ambiguous > 0 || !current.complete ? CompareExit::ambiguous
                                                      : CompareExit::pass;
  const char* word = out.exit == CompareExit::validation_mismatch ? "validation mismatch"
                     : out.exit == CompareExit::regression        ? "regression"
                     : out.exit == CompareExit::ambiguous         ? "ambiguous"
                                                                  : "pass";
  out.message = fmt::format(
      "{}: {} compared, {} pass, {} win, {} ambiguous, {} regression, {} validation mismatch", word,
      matched, out.passed, out.wins, out.ambiguous, out.regressions, out.mismatches);
  if (!current.complete) out.message += " (the current run was interrupted: incomplete)";
  out.refreshed_baseline = std::move(refreshed);
  return out;
}

std::string render_comparison(const CompareOutcome& o, TableFormat format, bool all_cases) {
  const bool md = format == TableFormat::markdown;
  std::string out = (md ? "### compare: " : "compare: ") + o.message + "\n";
  if (o.forced_across_devices)
    out += std::string(md ? "\n" : "") +
           "warning: the runs are from different devices (forced); absolute times do not carry\n";
  if (o.exit == CompareExit::usage) return out;

  std::vector<std::vector<std::string>> rows;
  auto speedup_text = [](const std::optional<SpeedupEstimate>& s) -> std::string {
    if (!s || !std::isfinite(s->median)) return "-";
    return fmt::format("{:.2f}x [{:.2f}, {:.2f}]", s->median, s->lo, s->hi);
  };
  auto fused_text = [](const std::optional<Summary>& s) -> std::string {
    if (!s || s->n == 0) return "-";
    return fmt::format("{:.2f}", s->median);
  };
  for (const CaseComparison& c : o.cases) {
    if (!all_cases && c.verdict == Verdict::pass) continue;
    std::string notes;
    for (const std::string& n : c.notes)
      notes += (notes.empty() ? "" : "; ") + n;
    rows.push_back({md ? "`" + c.id + "`" : c.id, c.mode, to_string(c.verdict),
                    speedup_text(c.baseline_speedup), speedup_text(c.current_speedup),
                    fused_text(c.baseline_fused), fused_text(c.current_fused), notes});
  }
  if (!rows.empty()) {
    out += "\n";
    out += render_table({"case", "mode", "verdict", "baseline speedup", "current speedup",
                         "baseline fused µs", "current fused µs", "why"},
                        rows, {true, true, true, false, false, false, false, true}, format);
  }
  if (o.speedups_compared > 0)
    out += fmt::format("\n{} of {} speedups lie within each other's intervals\n",
                       o.speedups_within_intervals, o.speedups_compared);
  if (o.only_baseline > 0 || o.only_current > 0)
    out +=
        fmt::format("\n{} case(s) only in the baseline, {} only in the current run (not gated)\n",
                    o.only_baseline, o.only_current);
  return out;
}

}  // namespace rkv
