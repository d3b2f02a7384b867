#include "gate/compare.h"

#include <gtest/gtest.h>

#include "report_fixture.h"

namespace rkv {
namespace {

using testing::base_report;
using testing::summary_around;
using testing::timed_case;

// Two cases, baseline speedups 2.0x (20 / 10 us) and 3.0x (9 / 3 us).
Report baseline() {
  Report r = base_report();
  r.cases = {timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 20.0, 10.0, 0.1),
             timed_case(DType::bf16, CacheDType::auto_, 8, 128, "graph", 9.0, 3.0, 0.02)};
  return r;
}

// Sets case `i`'s fused and pair summaries and recomputes its speedup.
void retime(Report& r, std::size_t i, double pair_us, double fused_us, double spread) {
  CaseResult& c = r.cases[i];
  c.variants[0].us = summary_around(fused_us, spread);
  c.variants[1].us = summary_around(pair_us, spread);
  c.speedup = speedup(c.variants[1].us, c.variants[0].us);
}

const CaseComparison& find(const CompareOutcome& o, const std::string& id) {
  for (const CaseComparison& c : o.cases)
    if (c.id == id) return c;
  throw std::runtime_error("no comparison for " + id);
}

TEST(Compare, IdenticalRunsPass) {
  const CompareOutcome o = compare_reports(baseline(), baseline(), {});
  EXPECT_EQ(o.exit_code(), 0);
  EXPECT_EQ(o.passed, 2);
  ASSERT_TRUE(o.refreshed_baseline.has_value());
  EXPECT_EQ(o.refreshed_baseline->cases.size(), 2u);
  EXPECT_EQ(o.message.rfind("pass:", 0), 0u) << o.message;
}

TEST(Compare, CountsSpeedupsWithinEachOthersIntervals) {
  Report cur = baseline();
  // Case 0 moves from 2.0x to 2.04x with intervals about +-0.02: outside each other's interval,
  // yet well within the gate's tolerance. Case 1 stays put.
  retime(cur, 0, 20.4, 10.0, 0.1);
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::pass);
  EXPECT_EQ(o.speedups_compared, 2);
  EXPECT_EQ(o.speedups_within_intervals, 1);
  EXPECT_NE(render_comparison(o, TableFormat::text)
                .find("1 of 2 speedups lie within each other's intervals"),
            std::string::npos);
}

TEST(Compare, SpeedupIntervalBelowToleranceIsARegression) {
  Report cur = baseline();
  retime(cur, 0, 20.0, 12.0, 0.1);  // 1.67x [1.64, 1.69] < 2.0 * 0.95
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::regression);
  EXPECT_EQ(o.regressions, 1);
  EXPECT_EQ(find(o, cur.cases[0].id).verdict, Verdict::regression);
  // The fused time is also clearly slower (q1 11.9 > q3 10.1, +2 us): both gates say why.
  EXPECT_EQ(find(o, cur.cases[0].id).notes.size(), 2u);
}

TEST(Compare, SpeedupMedianBelowButIntervalReachingIsAmbiguous) {
  Report cur = baseline();
  retime(cur, 0, 20.0, 10.8, 1.0);  // 1.85x, interval [1.61, 2.15] reaches 1.9
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::ambiguous);
  EXPECT_EQ(find(o, cur.cases[0].id).verdict, Verdict::ambiguous);
}

TEST(Compare, WithinToleranceSpeedupPasses) {
  Report cur = baseline();
  retime(cur, 0, 20.0, 10.3, 0.1);  // 1.94x >= 1.9
  CompareOptions opt;
  opt.max_slowdown_us = 0.5;  // +0.3 us is under the floor even though the ranges are apart
  EXPECT_EQ(compare_reports(baseline(), cur, opt).exit, CompareExit::pass);
}

TEST(Compare, UnexpectedWinIsReportedAndPasses) {
  Report cur = baseline();
  retime(cur, 1, 9.0, 2.0, 0.02);  // 4.5x, far above 3.0x; fused 1 us faster
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::pass);
  EXPECT_EQ(o.wins, 1);
  EXPECT_EQ(find(o, cur.cases[1].id).verdict, Verdict::win);
  EXPECT_NE(render_comparison(o, TableFormat::text).find("win"), std::string::npos);
}

TEST(Compare, AbsoluteSpeedupFloor) {
  CompareOptions opt;
  opt.min_speedup = 2.5;  // case 0 runs at 2.0x [1.98, 2.02]
  EXPECT_EQ(compare_reports(baseline(), baseline(), opt).exit, CompareExit::regression);
  opt.min_speedup = 2.01;  // the median is under, the interval reaches it
  EXPECT_EQ(compare_reports(baseline(), baseline(), opt).exit, CompareExit::ambiguous);
  opt.min_speedup = 0;  // off
  EXPECT_EQ(compare_reports(baseline(), baseline(), opt).exit, CompareExit::pass);
}

TEST(Compare, FusedTimeGateNeedsApartRangesAndTheFloor) {
  // The whole GPU got slower: speedup unchanged, fused time up by 1 us.
  Report cur = baseline();
  retime(cur, 0, 22.0, 11.0, 0.1);
  CompareOptions opt;
  opt.max_slowdown_us = 0.5;
  EXPECT_EQ(compare_reports(baseline(), cur, opt).exit, CompareExit::regression);
  opt.max_slowdown_us = 2.0;  // under the floor
  EXPECT_EQ(compare_reports(baseline(), cur, opt).exit, CompareExit::pass);

  retime(cur, 0, 22.0, 11.0, 2.0);  // ranges overlap: [9, 13] vs [9.9, 10.1]
  opt.max_slowdown_us = 0.5;
  const CompareOutcome o = compare_reports(baseline(), cur, opt);
  EXPECT_EQ(o.exit, CompareExit::ambiguous);
}

TEST(Compare, ValidationMismatchOutranksRegression) {
  Report cur = baseline();
  retime(cur, 0, 20.0, 15.0, 0.1);                   // a regression ...
  cur.cases[1].validation = Disposition::incorrect;  // ... and a wrong answer
  cur.cases[1].mismatches = 3;
  cur.cases[1].first_mismatch = "k token 0 head 1 dim 2";
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit_code(), 2);
  EXPECT_EQ(find(o, cur.cases[1].id).verdict, Verdict::validation_mismatch);
  // The refreshed baseline does not take the incorrect case.
  ASSERT_TRUE(o.refreshed_baseline.has_value());
  EXPECT_EQ(o.refreshed_baseline->cases[1].validation, Disposition::passed);
  EXPECT_DOUBLE_EQ(o.refreshed_baseline->cases[0].variants[0].us.median, 15.0);

  cur.cases[1].validation = Disposition::failed;
  EXPECT_EQ(compare_reports(baseline(), cur, {}).exit_code(), 2);
}

TEST(Compare, NoLongerMeasuredIsAmbiguous) {
  Report cur = baseline();
  cur.cases[0].validation = Disposition::skipped;
  cur.cases[0].variants.clear();
  cur.cases[0].speedup.reset();
  EXPECT_EQ(compare_reports(baseline(), cur, {}).exit, CompareExit::ambiguous);
}

TEST(Compare, DifferentDeviceIsRefusedUnlessForced) {
  Report cur = baseline();
  cur.device.driver_version = "575.51.03";
  const CompareOutcome refused = compare_reports(baseline(), cur, {});
  EXPECT_EQ(refused.exit_code(), 4);
  EXPECT_NE(refused.message.find("575.51.03"), std::string::npos) << refused.message;
  EXPECT_FALSE(refused.refreshed_baseline.has_value());

  CompareOptions opt;
  opt.force = true;
  const CompareOutcome forced = compare_reports(baseline(), cur, opt);
  EXPECT_EQ(forced.exit_code(), 0);
  EXPECT_TRUE(forced.forced_across_devices);
  EXPECT_NE(render_comparison(forced, TableFormat::text).find("different devices"),
            std::string::npos);
}

TEST(Compare, NothingInCommonIsAUsageError) {
  Report cur = baseline();
  for (CaseResult& c : cur.cases)
    c.mode = "cold";  // same ids, other mode: no match
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::usage);
  EXPECT_NE(o.message.find("no case"), std::string::npos);
}

TEST(Compare, UnmatchedCasesAreListedNotGated) {
  Report cur = baseline();
  cur.cases.pop_back();  // a smoke run: one of the two baseline cases
  cur.cases.push_back(timed_case(DType::fp16, CacheDType::auto_, 8, 8, "graph", 1.0, 5.0));
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::pass);
  EXPECT_EQ(o.only_baseline, 1);
  EXPECT_EQ(o.only_current, 1);
  // Refreshed: the baseline's cases (ids that exist there), current where measured.
  ASSERT_TRUE(o.refreshed_baseline.has_value());
  ASSERT_EQ(o.refreshed_baseline->cases.size(), 2u);
  EXPECT_EQ(o.refreshed_baseline->cases[0].id, baseline().cases[0].id);
  EXPECT_EQ(o.refreshed_baseline->cases[1].id, baseline().cases[1].id);
}

TEST(Compare, InterruptedRunIsAtBestAmbiguous) {
  Report cur = baseline();
  cur.cases.pop_back();
  cur.complete = false;
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::ambiguous);
  EXPECT_NE(o.message.find("interrupted"), std::string::npos) << o.message;
  EXPECT_FALSE(o.refreshed_baseline->complete);
}

TEST(Compare, RenderListsNonPassingCases) {
  Report cur = baseline();
  retime(cur, 0, 20.0, 12.0, 0.1);
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  const std::string md = render_comparison(o, TableFormat::markdown);
  EXPECT_EQ(md.rfind("### compare: regression:", 0), 0u) << md;
  EXPECT_NE(md.find("`bf16\\|auto\\|32x8x128\\|neox\\|nhd\\|N=1`"), std::string::npos) << md;
  EXPECT_EQ(md.find("N=128"), std::string::npos) << md;  // the passing case is not listed
  const std::string all = render_comparison(o, TableFormat::text, true);
  EXPECT_NE(all.find("N=128"), std::string::npos) << all;
}

}  // namespace
}  // namespace rkv
