// rkv-gate-calibration: the perf gate's false-alarm and miss rates on the committed H200 reports,
// the table docs/ci.md quotes. A CTest runs it; it fails when a same-build re-run raises a false
// alarm, or when a doctored copy with a real slowdown (5 % at N >= 128, 10 % at N <= 8) whose
// noise leaves room for it (0.5 x IQR/median under the slowdown) is missed.
//
//   same build   every committed pair of runs of one build, both directions, every matched case
//   re-run +x %  the same pairs with the second run's fused kernel doctored x % slower: the real
//                run-to-run drift plus the slowdown (what a CI run would see)
//   copy +x %    every case of every committed bench report against itself doctored x % slower:
//                the slowdown alone
#include <fmt/format.h>

#include <deque>
#include <filesystem>
#include <functional>
#include <iostream>

#include "gate/compare.h"
#include "gate_doctor.h"

namespace rkv {
namespace {

using testing::committed_report;

// Case sizes as the issue states its targets: decode (N <= 8), in between, N >= 128.
int size_class(std::int64_t tokens) {
  return tokens <= 8 ? 0 : tokens < 128 ? 1 : 2;
}
const char* const kClassNames[] = {"N <= 8", "16 <= N <= 64", "N >= 128"};

struct Tally {
  int hit[3] = {0, 0, 0}, total[3] = {0, 0, 0};
  void add(std::int64_t tokens, bool flagged) {
    total[size_class(tokens)] += 1;
    hit[size_class(tokens)] += flagged;
  }
  std::string cell(int k) const {
    if (total[k] == 0) return "-";
    return fmt::format("{} / {} ({:.1f} %)", hit[k], total[k], 100.0 * hit[k] / total[k]);
  }
};

std::int64_t tokens_of(const Report& r, const CaseComparison& c) {
  for (const CaseResult& x : r.cases)
    if (x.id == c.id && x.mode == c.mode) return x.spec.tokens;
  return 0;
}

void doctor_fused(Report& r, double f) {
  for (CaseResult& c : r.cases)
    if (c.find_variant(Variant::fused)) testing::scale_variant(c, "fused", f);
}

// Every matched case's verdict of baseline vs current, through `count`.
void tally(const Report& base, const Report& cur, bool allow_missing,
           const std::function<void(const CaseComparison&, std::int64_t)>& count) {
  CompareOptions o;
  o.allow_missing = allow_missing;
  const CompareOutcome out = compare_reports(base, cur, o);
  for (const CaseComparison& c : out.cases)
    if (!c.gates.empty()) count(c, tokens_of(base, c));
}

std::vector<std::string> committed_bench_reports() {
  std::vector<std::string> out;
  const std::string root = testing::committed("");
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".json") continue;
    const std::string rel = std::filesystem::relative(e.path(), root).string();
    try {
      if (committed_report(rel).command == "bench") out.push_back(rel);
    } catch (const ReportFormatError&) {
      // gbench.json, gtest.json: not reports
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

int run() {
  const RuleParams rule;
  std::deque<std::pair<std::string, Tally>> rows;  // deque: row() hands out references
  auto row = [&](const std::string& name) -> Tally& {
    rows.emplace_back(name, Tally{});
    return rows.back().second;
  };

  Tally& false_alarms = row("same build: false alarms (exit 1)");
  Tally& noted = row("same build: noted (warning only)");
  for (const auto& p : testing::same_build_pairs())
    for (const auto& [a, b] : {std::pair{p.first, p.second}, std::pair{p.second, p.first}})
      tally(committed_report(a), committed_report(b), p.overlapping,
            [&](const CaseComparison& c, std::int64_t n) {
              false_alarms.add(n, c.verdict == Verdict::regression);
              noted.add(n, c.verdict == Verdict::noted);
            });

  for (double f : {1.02, 1.05, 1.10}) {
    Tally& t = row(fmt::format("re-run, fused +{:.0f} %: caught", (f - 1) * 100));
    for (const auto& p : testing::same_build_pairs())
      for (const auto& [a, b] : {std::pair{p.first, p.second}, std::pair{p.second, p.first}}) {
        Report cur = committed_report(b);
        doctor_fused(cur, f);
        tally(committed_report(a), cur, p.overlapping,
              [&](const CaseComparison& c, std::int64_t n) {
                t.add(n, c.verdict == Verdict::regression);
              });
      }
  }

  const std::vector<std::string> reports = committed_bench_reports();
  int missed_required = 0;
  for (double f : {1.02, 1.05, 1.10}) {
    Tally& all = row(fmt::format("copy, fused +{:.0f} %: caught", (f - 1) * 100));
    Tally& quiet = row(fmt::format("copy, fused +{:.0f} %, noise <= {:.0f} %: caught",
                                   (f - 1) * 100, 2 * (f - 1) * 100));
    for (const std::string& rel : reports) {
      const Report& base = committed_report(rel);
      Report cur = base;
      doctor_fused(cur, f);
      tally(base, cur, false, [&](const CaseComparison& c, std::int64_t n) {
        const bool caught = c.verdict == Verdict::regression;
        all.add(n, caught);
        // The rule cannot see a slowdown smaller than half the noise: count those apart.
        if (c.gates[0].judgement.noise * rule.noise_factor < f - 1) {
          quiet.add(n, caught);
          const bool required = (f >= 1.05 && n >= 128) || (f >= 1.10 && n <= 8);
          if (required && !caught) {
            ++missed_required;
            std::cerr << "missed: " << rel << " " << c.id << " (" << c.mode << ") x" << f << "\n";
          }
        }
      });
    }
  }

  std::cout << fmt::format("| comparison | {} | {} | {} |\n| --- | ---: | ---: | ---: |\n",
                           kClassNames[0], kClassNames[1], kClassNames[2]);
  for (const auto& [name, t] : rows)
    std::cout << fmt::format("| {} | {} | {} | {} |\n", name, t.cell(0), t.cell(1), t.cell(2));
  std::cout << fmt::format("\n{} committed bench reports, {} same-build pairs (both directions)\n",
                           reports.size(), testing::same_build_pairs().size());

  const int alarms = false_alarms.hit[0] + false_alarms.hit[1] + false_alarms.hit[2];
  if (alarms > 0) std::cerr << "FAIL: " << alarms << " false alarm(s) on same-build re-runs\n";
  if (missed_required > 0)
    std::cerr << "FAIL: " << missed_required << " required slowdown(s) missed\n";
  return alarms == 0 && missed_required == 0 ? 0 : 1;
}

}  // namespace
}  // namespace rkv

int main() {
  try {
    return rkv::run();
  } catch (const std::exception& e) {
    std::cerr << "rkv-gate-calibration: " << e.what() << "\n";
    return 1;
  }
}
