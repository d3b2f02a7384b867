// The offline check of the speedup interval rule (docs/methodology.md, "Intervals that hold
// across runs") against re-runs committed under results/h200: each pair of reports is one build
// run twice in separate processes. The intervals are recomputed from what the reports store
// (every pass's speedup) by the same code `bench` uses, and the test counts how many speedups of
// one run lie inside the other run's interval, both ways, and how wide the intervals are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "committed_reports.h"
#include "report/report.h"
#include "run/bench_report.h"

namespace rkv {
namespace {

struct Coverage {
  int cases = 0;
  int mutual = 0;                   // each centre inside the other run's interval
  double median_half_width = 0;     // relative, over the cases with N >= 128
  std::vector<std::string> missed;  // ids of the cases that are not `mutual`
};

Coverage check_pair(const std::string& a_rel, const std::string& b_rel) {
  Report a = read_report(testing::committed(a_rel)), b = read_report(testing::committed(b_rel));
  set_speedup_intervals(a.cases);
  set_speedup_intervals(b.cases);
  std::map<std::string, const CaseResult*> in_b;
  for (const CaseResult& c : b.cases)
    if (c.speedup) in_b[c.id + "@" + c.mode] = &c;
  Coverage out;
  std::vector<double> widths;
  for (const CaseResult& c : a.cases) {
    const auto it = in_b.find(c.id + "@" + c.mode);
    if (!c.speedup || it == in_b.end()) continue;
    const SpeedupEstimate &sa = *c.speedup, &sb = *it->second->speedup;
    ++out.cases;
    const double ca = sa.interval_center(), cb = sb.interval_center();
    const bool both = sa.lo <= cb && cb <= sa.hi && sb.lo <= ca && ca <= sb.hi;
    out.mutual += both;
    if (!both) out.missed.push_back(c.id);
    if (c.spec.tokens >= 128) widths.push_back((sa.hi - sa.lo) / 2 / ca);
  }
  std::sort(widths.begin(), widths.end());
  out.median_half_width = widths.empty() ? NAN : quantile_sorted(widths, 0.5);
  return out;
}

// The three runs of a triple: PREFIX1.json, PREFIX2.json, PREFIX3.json.
std::vector<std::string> triple(const std::string& prefix) {
  return {prefix + "1.json", prefix + "2.json", prefix + "3.json"};
}

// Calls check(a, b, coverage) for every pair of the runs, after printing what the pair gave.
template <typename Check>
void for_each_pair(const std::vector<std::string>& runs, Check check) {
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      const Coverage c = check_pair(runs[i], runs[j]);
      std::printf("%s / %s: %d of %d within each other's intervals, median half-width %.2f %%\n",
                  runs[i].c_str(), runs[j].c_str(), c.mutual, c.cases, 100 * c.median_half_width);
      check(runs[i], runs[j], c);
    }
}

// Every pair of three seed-table runs: all 32 cases matched, at least 31 of them with each
// centre inside the other run's interval.
void expect_every_pair_agrees(const std::string& prefix) {
  for_each_pair(triple(prefix), [](const std::string& a, const std::string& b, const Coverage& c) {
    EXPECT_EQ(c.cases, 32);
    EXPECT_GE(c.mutual, 31) << a << " / " << b;
  });
}

// Three passes per run (the seed table of kernels v5 and v4). Three passes leave the pass spread
// a larger share of the half-width than the seed table's five do now: 3.3-3.7 % at N >= 128
// with the machine term (docs/methodology.md gives the table), so the bound here is 4 %.
TEST(IntervalCoverage, SeedTableReRunsLieInEachOthersIntervals) {
  for (const auto& [a, b] : {std::pair{"seed-table.json", "seed-table-run2.json"},
                             {"experiments/v4-acb91e5-seed-table.json",
                              "experiments/v4-acb91e5-seed-table-run2.json"}}) {
    const Coverage c = check_pair(a, b);
    std::printf(
        "%-45s %d of %d within each other's intervals, median half-width %.2f %% (N>=128)\n", a,
        c.mutual, c.cases, 100 * c.median_half_width);
    EXPECT_EQ(c.cases, 32) << a;
    EXPECT_GE(c.mutual, 31) << a;
    EXPECT_LE(c.median_half_width, 0.04) << a;
  }
}

// Five passes per run, kernel v6, each run on its own machine (three device calls): the data the
// machine term was estimated from (scripts/between_machine.py), so this checks the rule's
// arithmetic and that the estimate is enough on its own data; the out-of-sample check is the
// three fresh runs that results/h200/README.md reports.
TEST(IntervalCoverage, SeedTableRunsOnThreeMachines) {
  expect_every_pair_agrees("wave2/seed-table-run");
}

// The out-of-sample check: three fresh seed-table runs made after the rule was fixed, each in
// its own device call (wave3, same build). The README states what they gave; the half-width
// is printed, not bounded: at N >= 128 it sits at about 3 %, the N = 128 cases carrying the
// 1 % machine term that the data asks for.
TEST(IntervalCoverage, FreshSeedTableRunsAfterTheRuleWasFixed) {
  expect_every_pair_agrees("wave3/seed-table-fresh");
}

// Session 5's experiment build (kernel v7e, not adopted; its branch was lost, the reports remain),
// five passes, three fresh machines: another out-of-sample check of the same rule.
TEST(IntervalCoverage, FreshRunsOfTheV7eExperimentBuild) {
  expect_every_pair_agrees("wave4/seed-table-fresh");
}

// Ten passes (the seed table since wave 5), three fresh machines. Issue 9 asks for a median
// half-width at N >= 128 of at most 3 % in every run, which ten passes give, and for at least 31
// of 32 centres inside each other's intervals, which two of the three pairs miss (29 of 32): each
// miss is an fp8-cache case whose pair time is bimodal between passes and processes
// (results/NOTES.md, "fp8 decode slow modes"). The test holds the rule to that account: no
// bf16/fp16-cache case may miss.
TEST(IntervalCoverage, TenPassRunsAreNarrowAndOnlyFp8CasesMiss) {
  const std::vector<std::string> runs = triple("wave5/seed-table-fresh");
  for (const std::string& run : runs)  // a run against itself: its own intervals' widths
    EXPECT_LE(check_pair(run, run).median_half_width, 0.03) << run;
  for_each_pair(runs, [](const std::string& a, const std::string& b, const Coverage& c) {
    EXPECT_EQ(c.cases, 32);
    for (const std::string& id : c.missed)
      EXPECT_NE(id.find("|fp8_e4m3|"), std::string::npos) << a << " / " << b << ": " << id;
  });
}

// Ten passes with the input refresh (session 7: the fp8 slow modes were in-place drift, not
// placement; timing/input_refresh.h), three fresh machines, made with --samples. Issue 9's bar:
// a median half-width at N >= 128 of at most 3 % in every run, and at least 31 of 32 centres
// inside the other run's intervals for every pair.
TEST(IntervalCoverage, TenPassRunsWithTheInputRefresh) {
  const std::vector<std::string> runs = triple("wave6/seed/seed-table-fresh");
  for (const std::string& run : runs)
    EXPECT_LE(check_pair(run, run).median_half_width, 0.03) << run;
  for_each_pair(runs, [](const std::string& a, const std::string& b, const Coverage& c) {
    EXPECT_EQ(c.cases, 32);
    EXPECT_GE(c.mutual, 31) << a << " / " << b;
  });
}

// One pass per run (the A/B rounds' base build, run first and last in one device call): no pass
// spread to see, so the interval rests on the assumed one-pass spread.
TEST(IntervalCoverage, OnePassReRunsOfTheAbRounds) {
  int cases = 0, mutual = 0;
  for (const char* round : {"ab-round2", "ab-round4"})
    for (const char* kind : {"decode", "prefill"}) {
      const std::string base = std::string("experiments/") + round + "/base-" + kind;
      const Coverage c = check_pair(base + ".json", base + "-again.json");
      std::printf("%-45s %d of %d\n", base.c_str(), c.mutual, c.cases);
      cases += c.cases;
      mutual += c.mutual;
    }
  EXPECT_EQ(cases, 44);
  EXPECT_GE(mutual, 41);  // 93 %: one pass is not enough for the 31-of-32 claim
}

}  // namespace
}  // namespace rkv
