#include "history/trend.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "gate/preflight.h"

namespace rkv {
namespace {

// The row as the one case of a report, holding what compare's rule reads: per variant the
// quartiles, the fastest launch and each pass's median; the token count (the machine
// allowance's class) and the GPU's uuid (whether the allowance applies at all).
Report as_report(const HistoryCase& h, const HistoryRun& run) {
  CaseResult c;
  c.id = h.case_id;
  c.mode = h.mode;
  c.spec.tokens = h.tokens > 0 ? h.tokens : c.spec.tokens;  // rows before format 2: unknown
  c.validation = parse_disposition(h.disposition).value_or(Disposition::failed);
  c.mismatches = h.mismatches;
  c.first_mismatch = h.first_mismatch;
  c.detail = h.detail;
  auto variant = [](const char* name, int n, double median, double q1, double q3, double min,
                    const std::vector<double>& pass_medians) {
    VariantResult v;
    v.variant = name;
    v.us.n = n;
    v.us.median = median;
    v.us.q1 = q1;
    v.us.q3 = q3;
    // The gate's "fastest launches also slower" check reads the fastest launch. Rows added
    // before history format 2 lack it: for those the lower quartile stands in, a stricter
    // stand-in (it moves with the bulk of the launches, so it calls a slowdown more readily).
    v.us.min = std::isnan(min) ? q1 : min;
    for (double m : pass_medians) {  // the rule's spread between passes reads only the medians
      Summary pass;
      pass.median = m;
      v.passes.push_back(pass);
    }
    return v;
  };
  if (h.fused_n > 0)
    c.variants.push_back(variant("fused", h.fused_n, h.fused_median_us, h.fused_q1_us,
                                 h.fused_q3_us, h.fused_min_us, h.fused_pass_medians_us));
  if (h.pair_n > 0)
    c.variants.push_back(variant("pair", h.pair_n, h.pair_median_us, h.pair_q1_us, h.pair_q3_us,
                                 h.pair_min_us, h.pair_pass_medians_us));
  if (h.timed()) c.speedup = SpeedupEstimate{h.speedup, h.speedup_lo, h.speedup_hi, {}};
  Report r;
  r.device.uuid = run.device_uuid;
  r.cases = {c};
  return r;
}

// Text order, except that runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])))
        ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])))
        ++ej;
      const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      if (na.size() != nb.size()) return na.size() < nb.size();  // no leading zeros in ids
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The run's timing settings, when its row has them (format 3) and they read.
std::optional<TimingOptions> timing_of(const HistoryRun& run) {
  if (run.timing_json.empty()) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(run.timing_json, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  try {
    return j.get<TimingOptions>();
  } catch (const ReportFormatError&) {
    return std::nullopt;
  }
}

void judge(const TrendPoint& previous, TrendPoint& point) {
  if (previous.run->device_fingerprint != point.run->device_fingerprint) {
    point.note = "measured on another device than the previous point";
    return;
  }
  // compare refuses two runs timed with other settings (without --force): so does the trend.
  // Rows from before format 3 carry none, and are judged as before.
  const auto before = timing_of(*previous.run), now = timing_of(*point.run);
  if (before && now) {
    const std::vector<std::string> d = timing_differences(*before, *now);
    if (!d.empty()) {
      point.note = "timed with other settings than the previous point:";
      for (std::size_t i = 0; i < d.size(); ++i)
        point.note += (i ? ", " : " ") + d[i];
      return;
    }
  }
  CompareOptions o;
  o.force = true;  // the rows carry no device but its uuid; the fingerprints were compared above
  // Otherwise compare's command-line defaults (docs/ci.md): the fused time, the calibrated rule,
  // the machine allowance decided by the two runs' GPU uuids.
  const CompareOutcome out = compare_reports(as_report(previous.result, *previous.run),
                                             as_report(point.result, *point.run), o);
  if (out.cases.empty()) return;
  point.verdict = out.cases.front().verdict;
  for (const std::string& n : out.cases.front().notes)
    point.note += (point.note.empty() ? "" : "; ") + n;
}

}  // namespace

std::string short_revision(const std::string& git_revision) {
  std::string r = git_revision;
  const std::string dirty = "-dirty";
  if (r.size() > dirty.size() && r.compare(r.size() - dirty.size(), dirty.size(), dirty) == 0)
    r.resize(r.size() - dirty.size());
  return r.substr(0, 12);
}

std::vector<Trend> build_trends(const std::vector<HistoryRun>& runs,
                                const std::vector<HistoryCase>& cases, bool include_untimed) {
  std::map<std::int64_t, const HistoryRun*> run_by_id;
  for (const HistoryRun& r : runs)
    run_by_id[r.run_id] = &r;
  std::map<std::pair<std::string, std::string>, Trend> trends;
  for (const HistoryCase& c : cases) {  // already in trend order
    if (c.mode.empty() && !include_untimed) continue;
    const auto run = run_by_id.find(c.run_id);
    if (run == run_by_id.end()) continue;
    Trend& t = trends[{c.case_id, c.mode}];
    t.case_id = c.case_id;
    t.mode = c.mode;
    TrendPoint p;
    p.run = run->second;
    p.result = c;
    if (!t.points.empty()) judge(t.points.back(), p);
    t.points.push_back(std::move(p));
  }
  std::vector<Trend> out;
  for (auto& [key, t] : trends)
    out.push_back(std::move(t));
  // N=512 before N=2048 before N=16384: ids compare with their numbers as numbers.
  std::stable_sort(out.begin(), out.end(), [](const Trend& a, const Trend& b) {
    if (a.case_id != b.case_id) return natural_less(a.case_id, b.case_id);
    return a.mode < b.mode;
  });
  return out;
}

}  // namespace rkv
