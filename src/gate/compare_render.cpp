#include "gate/compare_render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rkv {
namespace {

// Lower comes first: what fails the gate, then what deserves a look, then the rest.
int listing_rank(Verdict v) {
  switch (v) {
    case Verdict::regression:
      return 0;
    case Verdict::not_passed:
      return 1;
    case Verdict::missing:
      return 2;
    case Verdict::unconfirmed:
      return 3;
    case Verdict::accepted:
      return 4;
    case Verdict::noted:
      return 5;
    case Verdict::added:
      return 6;
    case Verdict::win:
      return 7;
    case Verdict::pass:
      return 8;
  }
  return 8;
}

std::string device_text(const DeviceInfo& d) {
  return fmt::format("{} ({} SMs, driver {}, CUDA {})", d.name, d.sm_count, d.driver_version,
                     d.runtime_version);
}

std::string value_text(Gated g, double v) {
  if (!std::isfinite(v)) return "-";
  return g == Gated::speedup ? fmt::format("{:.2f}x", v) : fmt::format("{:.3f}", v);
}

const GateResult* find_gate(const CaseComparison& c, Gated g) {
  for (const GateResult& r : c.gates)
    if (r.what == g) return &r;
  return nullptr;
}

std::string notes_text(const CaseComparison& c) {
  std::string s;
  for (const std::string& n : c.notes)
    s += (s.empty() ? "" : "; ") + n;
  return s;
}

}  // namespace

std::vector<const CaseComparison*> rows_in_order(const CompareOutcome& o) {
  std::vector<const CaseComparison*> rows;
  for (const CaseComparison& c : o.cases)
    rows.push_back(&c);
  std::stable_sort(rows.begin(), rows.end(), [&](const auto* a, const auto* b) {
    const bool fa = fails_gate(a->verdict, o.allow_missing);
    const bool fb = fails_gate(b->verdict, o.allow_missing);
    if (fa != fb) return fa;
    return listing_rank(a->verdict) < listing_rank(b->verdict);
  });
  return rows;
}

std::string describe_rule(const CompareOutcome& o) {
  std::string gated;
  for (Gated g : o.gate)
    gated += (gated.empty() ? "" : ",") + to_string(g);
  const RuleParams& r = o.rule;
  return fmt::format(
      "gated: {}; slower = median up by more than T = max({:g}% + {:g} us / baseline median, "
      "{:g} x noise{}), fastest launches up by more than {:g} T, one-sided p < {:g}; speedup "
      "floor {:g}%",
      gated, r.min_slowdown * 100, r.resolution_us, r.noise_factor,
      o.machine_allowance_applies
          ? fmt::format(", machine allowance {:g}% at N <= {}, {:g}% at N <= {}, {:g}% above",
                        r.decode_machine_allowance * 100, r.decode_max_tokens,
                        r.mid_machine_allowance * 100, r.mid_max_tokens,
                        r.large_machine_allowance * 100)
          : "",
      r.floor_shift_share, r.max_p, r.speedup_tolerance * 100);
}

std::string render_comparison(const CompareOutcome& o, TableFormat format, bool all_rows) {
  const bool md = format == TableFormat::markdown;
  std::string out =
      md ? "### rope-kv-bench perf gate: " + o.message + "\n\n" : "compare: " + o.message + "\n";
  if (md) {
    out += render_table({"", "revision", "date", "device"},
                        {{"baseline", "`" + o.baseline.git_revision + "`", o.baseline.created_utc,
                          device_text(o.baseline.device)},
                         {"current", "`" + o.current.git_revision + "`", o.current.created_utc,
                          device_text(o.current.device)}},
                        std::vector<bool>(4, true), format);
    out += "\n**GPU:** " + o.machine_allowance_why + "\n";
  } else {
    out +=
        fmt::format("baseline: {}, {}, {}\ncurrent:  {}, {}, {}\n", o.baseline.git_revision,
                    o.baseline.created_utc, device_text(o.baseline.device), o.current.git_revision,
                    o.current.created_utc, device_text(o.current.device));
    out += "gpu:      " + o.machine_allowance_why + "\n";
  }
  for (const std::string& w : o.warnings)
    out += std::string(md ? "\n> **warning:** " : "warning: ") + w + "\n";
  if (o.cases.empty()) return out;  // refused before comparing

  std::vector<std::string> header = {"case", "mode", "verdict"};
  for (Gated g : o.gate) {
    const std::string unit = g == Gated::speedup ? "" : " µs";
    header.push_back(to_string(g) + " base" + unit);
    header.push_back(to_string(g) + " now" + unit);
    header.push_back(to_string(g) + " Δ%");
    header.push_back("T%");
  }
  header.push_back("why");
  std::vector<bool> left(header.size(), false);
  left[0] = left[1] = left[2] = left.back() = true;

  std::vector<std::vector<std::string>> rows;
  for (const CaseComparison* c : rows_in_order(o)) {
    if (!all_rows && c->verdict == Verdict::pass) continue;
    std::vector<std::string> row = {md ? "`" + c->id + "`" : c->id, c->mode,
                                    md && fails_gate(c->verdict, o.allow_missing)
                                        ? "**" + to_string(c->verdict) + "**"
                                        : to_string(c->verdict)};
    for (Gated g : o.gate) {
      const GateResult* r = find_gate(*c, g);
      if (!r) {
        row.insert(row.end(), {"-", "-", "-", "-"});
        continue;
      }
      row.push_back(value_text(g, r->baseline));
      row.push_back(value_text(g, r->current));
      row.push_back(fmt::format("{:+.1f}", r->judgement.delta * 100));
      row.push_back(fmt::format("{:.1f}", r->judgement.threshold * 100));
    }
    row.push_back(notes_text(*c));
    rows.push_back(std::move(row));
  }
  if (!rows.empty()) out += "\n" + render_table(header, rows, left, format);
  if (o.speedups_compared > 0)
    out += fmt::format("\n{} of {} speedups lie within each other's intervals\n",
                       o.speedups_within_intervals, o.speedups_compared);
  const int hidden = all_rows ? 0 : o.count(Verdict::pass);
  if (hidden > 0)
    out += fmt::format("\n{} passing case(s) not listed{}\n", hidden,
                       md ? " (`--all` lists them)" : " (--all lists them)");
  out += std::string(md ? "\n<sub>" : "\n") + describe_rule(o) + (md ? "</sub>\n" : "\n");
  return out;
}

}  // namespace rkv
