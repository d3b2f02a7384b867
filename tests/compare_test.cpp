// The gate's parts on synthetic reports: the rule's thresholds and evidence, the rank test, the
// refreshed baseline and its provenance, the renderers, and the command's outputs.
#include "gate/compare.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gate/compare_command.h"
#include "gate/compare_render.h"
#include "gate/github_output.h"
#include "gate/refreshed_baseline.h"
#include "gate/verdict_json.h"
#include "gate_doctor.h"
#include "report_fixture.h"
#include "stats/rank_test.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using testing::base_report;
using testing::scale_variant;
using testing::timed_case;

// Two cases: N=1 (fused 2 us) and N=2048 (fused 10 us), tight spreads.
Report baseline() {
  Report r = base_report();
  r.device.uuid.clear();  // the GPU unknown unless a test stamps one
  r.cases = {timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 3.4, 2.0, 0.01),
             timed_case(DType::bf16, CacheDType::auto_, 8, 2048, "graph", 14.0, 10.0, 0.02)};
  return r;
}

const CaseComparison& find(const CompareOutcome& o, const std::string& id) {
  for (const CaseComparison& c : o.cases)
    if (c.id == id) return c;
  throw std::runtime_error("no comparison for " + id);
}

// The token count the synthetic rule tests pass, on one board (Boards::same): the thresholds
// below are the size-and-noise rule alone.
constexpr std::int64_t kPrefill = 2048;

TimeSamples samples_around(double median, double spread, int n = 200) {
  TimeSamples t;
  t.pooled = testing::summary_around(median, spread, n);
  return t;
}

TEST(GateRule, ThresholdScalesWithSizeAndNoise) {
  const RuleParams p;
  // Floor: 2 % + 0.03 us / median: 3.5 % at 2 us, 2.3 % at 10 us.
  Judgement j =
      judge_time(samples_around(2.0, 0.01), samples_around(2.0, 0.01), kPrefill, Boards::same, p);
  EXPECT_NEAR(j.threshold, 0.035, 1e-12);
  j = judge_time(samples_around(10.0, 0.01), samples_around(10.0, 0.01), kPrefill, Boards::same, p);
  EXPECT_NEAR(j.threshold, 0.023, 1e-12);
  // Noise: IQR / median of 20 % in either run makes T = 0.5 x 20 % = 10 %.
  j = judge_time(samples_around(10.0, 0.01), samples_around(10.0, 1.0), kPrefill, Boards::same, p);
  EXPECT_NEAR(j.threshold, 0.10, 1e-12);
  EXPECT_EQ(j.change, Change::none);
}

TEST(GateRule, MachineAllowanceBoundsTheThresholdPerTokenClassAcrossBoards) {
  const RuleParams p;
  const TimeSamples b = samples_around(2.0, 0.01);
  // 7 % slower, fastest launches and evidence included: a machine-sized shift at N <= 8 passes
  // when the runs may come from two boards.
  const TimeSamples c = samples_around(2.14, 0.01);
  for (std::int64_t n : {1, 8}) {
    const Judgement j = judge_time(b, c, n, Boards::may_differ, p);
    EXPECT_DOUBLE_EQ(j.threshold, p.decode_machine_allowance) << n;
    EXPECT_DOUBLE_EQ(j.machine_allowance, p.decode_machine_allowance) << n;
    EXPECT_EQ(j.change, Change::none) << n;
    EXPECT_NE(j.why.find("= machine allowance"), std::string::npos) << j.why;
  }
  // On one board the same numbers are judged by the size-and-noise rule: 3.5 % at 2 us.
  const Judgement same = judge_time(b, c, 1, Boards::same, p);
  EXPECT_NEAR(same.threshold, 0.035, 1e-12);
  EXPECT_EQ(same.machine_allowance, 0);
  EXPECT_EQ(same.change, Change::slower);
  EXPECT_EQ(same.why.find("allowance"), std::string::npos) << same.why;
  // The classes' edges: 9 and 1024 tokens are mid (5.5 %), 1025 large (2 %, under the floor
  // 2 % + 0.03 us / 2 us: the floor sets T).
  for (std::int64_t n : {9, 1024}) {
    const Judgement j = judge_time(b, c, n, Boards::may_differ, p);
    EXPECT_DOUBLE_EQ(j.threshold, p.mid_machine_allowance) << n;
    EXPECT_EQ(j.change, Change::slower) << n;  // 7 % > 5.5 %
  }
  const Judgement large = judge_time(b, c, 1025, Boards::may_differ, p);
  EXPECT_DOUBLE_EQ(large.machine_allowance, p.large_machine_allowance);
  EXPECT_NEAR(large.threshold, 0.035, 1e-12);
  EXPECT_EQ(large.why.find("= machine allowance"), std::string::npos) << large.why;
  EXPECT_DOUBLE_EQ(p.machine_allowance(8), 0.08);
  EXPECT_DOUBLE_EQ(p.machine_allowance(9), 0.055);
  EXPECT_DOUBLE_EQ(p.machine_allowance(1024), 0.055);
  EXPECT_DOUBLE_EQ(p.machine_allowance(1025), 0.02);
  // 10 % at N=1 is caught across boards; noise wider than the allowance still widens T past it.
  EXPECT_EQ(judge_time(b, samples_around(2.2, 0.01), 1, Boards::may_differ, p).change,
            Change::slower);
  const Judgement noisy = judge_time(b, samples_around(2.0, 0.2), 1, Boards::may_differ, p);
  EXPECT_NEAR(noisy.threshold, 0.10, 1e-12);
  EXPECT_EQ(noisy.why.find("= machine allowance"), std::string::npos) << noisy.why;
}

TEST(GateRule, SlowerNeedsMedianFloorAndEvidence) {
  const RuleParams p;
  const TimeSamples b = samples_around(10.0, 0.02);
  EXPECT_EQ(judge_time(b, samples_around(10.5, 0.02), kPrefill, Boards::same, p).change,
            Change::slower);
  EXPECT_EQ(judge_time(b, samples_around(10.2, 0.02), kPrefill, Boards::same, p).change,
            Change::none);  // 2 % < 2.3 %
  EXPECT_EQ(judge_time(b, samples_around(9.5, 0.02), kPrefill, Boards::same, p).change,
            Change::faster);
  // Median up 5 %, fastest launch unchanged (a bimodal re-run): noted, not slower.
  TimeSamples c = samples_around(10.5, 0.02);
  c.pooled.min = b.pooled.min;
  const Judgement noted = judge_time(b, c, kPrefill, Boards::same, p);
  EXPECT_EQ(noted.change, Change::noted);
  EXPECT_NE(noted.why.find("fastest launches did not slow down"), std::string::npos);
  // Median and minimum up 5 % but so few, so noisy samples that the evidence is weak.
  TimeSamples thin_b = samples_around(10.0, 0.2, 2), thin_c = samples_around(10.5, 0.2, 2);
  EXPECT_EQ(judge_time(thin_b, thin_c, kPrefill, Boards::same, p).change, Change::noted);
}

TEST(GateRule, PassMediansWidenTheEvidence) {
  const RuleParams p;
  TimeSamples b = samples_around(10.0, 0.01, 300), c = samples_around(10.5, 0.01, 300);
  const double tight = judge_time(b, c, kPrefill, Boards::same, p).evidence.z;
  // Three passes that disagree by 10 %: the same medians are no longer strong evidence.
  b.passes = {testing::summary_around(9.5, 0.01, 100), testing::summary_around(10.0, 0.01, 100),
              testing::summary_around(10.5, 0.01, 100)};
  const Judgement wide = judge_time(b, c, kPrefill, Boards::same, p);
  EXPECT_LT(wide.evidence.z, tight / 10);
  EXPECT_EQ(wide.evidence.method, "median-z");
}

TEST(GateRule, RawSamplesUseTheRankTest) {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0, 0.05);
  TimeSamples b = samples_around(10.0, 0.03), c = samples_around(10.5, 0.03);
  for (int i = 0; i < 300; ++i) {
    b.raw.push_back(10.0 + noise(rng));
    c.raw.push_back(10.5 + noise(rng));
  }
  const Judgement j = judge_time(b, c, kPrefill, Boards::same, RuleParams{});
  EXPECT_EQ(j.evidence.method, "mann-whitney");
  EXPECT_LT(j.evidence.p_slower, 1e-6);
  EXPECT_EQ(j.change, Change::slower);
  // Same distribution: no evidence, whatever the medians happen to be.
  TimeSamples same = b;
  same.raw.clear();
  for (int i = 0; i < 300; ++i)
    same.raw.push_back(10.0 + noise(rng));
  EXPECT_GT(judge_time(b, same, kPrefill, Boards::same, RuleParams{}).evidence.p_slower, 0.001);
}

TEST(RankTest, MatchesHandComputedU) {
  // x = {3, 4}, y = {1, 2, 3}: pairs x > y: 3>1, 3>2, 4>1, 4>2, 4>3 = 5, tie 3=3 counts 1/2.
  const RankTest t = mann_whitney({3, 4}, {1, 2, 3});
  EXPECT_DOUBLE_EQ(t.u, 5.5);
  EXPECT_GT(t.z, 0);
  EXPECT_LT(t.p_greater, 0.5);
  EXPECT_GT(t.p_less, 0.5);
  const RankTest none = mann_whitney({}, {1, 2});
  EXPECT_EQ(none.p_greater, 1);
  const RankTest tied = mann_whitney({1, 1, 1}, {1, 1});
  EXPECT_EQ(tied.p_greater, 1);
  EXPECT_NEAR(normal_upper_tail(1.6448536), 0.05, 1e-6);
}

TEST(GateRule, SpeedupDropNeedsApartIntervals) {
  RuleParams p;
  SpeedupEstimate b{2.0, 1.98, 2.02, {}}, c{1.8, 1.78, 1.82, {}};
  EXPECT_EQ(judge_speedup(b, c, p).change, Change::slower);
  c = {1.8, 1.6, 2.1, {}};  // overlapping: noted
  EXPECT_EQ(judge_speedup(b, c, p).change, Change::noted);
  c = {1.95, 1.94, 1.96, {}};  // -2.5 % < 5 %
  EXPECT_EQ(judge_speedup(b, c, p).change, Change::none);
}

const char* const kGpuA = "GPU-0a1b2c3d-0000-1111-2222-333344445555";
const char* const kGpuB = "GPU-0a1b2c3d-0000-1111-2222-999988887777";

// The N=1 case's fused kernel 7 % slower (fastest launches and evidence agree): inside the decode
// allowance across boards, caught on one board.
Report seven_percent_at_n1(const char* uuid) {
  Report r = baseline();
  r.device.uuid = uuid;
  scale_variant(r.cases[0], "fused", 1.07);
  return r;
}

Report on_gpu(const char* uuid) {
  Report r = baseline();
  r.device.uuid = uuid;
  return r;
}

TEST(Compare, SameGpuIsBothUuidsEqual) {
  DeviceInfo a, b;
  EXPECT_EQ(same_gpu(a, b), std::nullopt);
  a.uuid = kGpuA;
  EXPECT_EQ(same_gpu(a, b), std::nullopt);
  b.uuid = kGpuA;
  EXPECT_EQ(same_gpu(a, b), true);
  b.uuid = kGpuB;
  EXPECT_EQ(same_gpu(a, b), false);
  // The uuid is the board, the fingerprint the kind of machine: two boards share one.
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
}

TEST(Compare, MachineAllowanceByUuid) {
  // The same GPU: the tight rule catches 7 % at N=1.
  CompareOutcome o = compare_reports(on_gpu(kGpuA), seven_percent_at_n1(kGpuA), {});
  EXPECT_EQ(o.exit, CompareExit::regression) << o.message;
  EXPECT_EQ(o.same_gpu, true);
  EXPECT_FALSE(o.machine_allowance_applies);
  EXPECT_EQ(o.machine_allowance_why,
            std::string("baseline measured on this GPU (") + kGpuA + "): no machine allowance");
  EXPECT_EQ(o.cases[0].machine_allowance, 0);
  // Another GPU: the decode allowance (8 %) lets it through.
  o = compare_reports(on_gpu(kGpuA), seven_percent_at_n1(kGpuB), {});
  EXPECT_EQ(o.exit, CompareExit::pass) << o.message;
  EXPECT_EQ(o.same_gpu, false);
  EXPECT_TRUE(o.machine_allowance_applies);
  EXPECT_EQ(o.machine_allowance_why.rfind(std::string("baseline measured on another GPU (uuid ") +
                                              kGpuA + " vs " + kGpuB +
                                              "): between-machine "
                                              "allowance applies (8% at "
                                              "N <= 8, 5.5% at N <= "
                                              "1024, 2% above)",
                                          0),
            0u)
      << o.machine_allowance_why;
  EXPECT_DOUBLE_EQ(find(o, baseline().cases[0].id).machine_allowance, 0.08);
  EXPECT_DOUBLE_EQ(find(o, baseline().cases[1].id).machine_allowance, 0.02);
  // Unknown (either report without uuid): the allowance applies.
  for (const auto& [b, c] : {std::pair{baseline(), seven_percent_at_n1(kGpuA)},
                             std::pair{on_gpu(kGpuA), seven_percent_at_n1("")}}) {
    o = compare_reports(b, c, {});
    EXPECT_EQ(o.exit, CompareExit::pass) << o.message;
    EXPECT_EQ(o.same_gpu, std::nullopt);
    EXPECT_TRUE(o.machine_allowance_applies);
    EXPECT_NE(o.machine_allowance_why.find("unknown (report without uuid): between-machine "
                                           "allowance applies"),
              std::string::npos)
        << o.machine_allowance_why;
  }
  EXPECT_EQ(compare_reports(baseline(), baseline(), {})
                .machine_allowance_why.rfind("GPU of both runs unknown (reports without uuid)", 0),
            0u);
}

TEST(Compare, MachineAllowanceOnAndOffOverrideTheUuids) {
  CompareOptions on, off;
  on.machine_allowance = MachineAllowance::on;
  off.machine_allowance = MachineAllowance::off;
  // on: the allowance even on one GPU.
  CompareOutcome o = compare_reports(on_gpu(kGpuA), seven_percent_at_n1(kGpuA), on);
  EXPECT_EQ(o.exit, CompareExit::pass) << o.message;
  EXPECT_EQ(o.same_gpu, true);
  EXPECT_NE(o.machine_allowance_why.find("; --machine-allowance on: between-machine allowance"),
            std::string::npos)
      << o.machine_allowance_why;
  // off: the tight rule across GPUs and for reports without uuid.
  o = compare_reports(on_gpu(kGpuA), seven_percent_at_n1(kGpuB), off);
  EXPECT_EQ(o.exit, CompareExit::regression) << o.message;
  EXPECT_NE(o.machine_allowance_why.find("; --machine-allowance off: no machine allowance"),
            std::string::npos);
  EXPECT_EQ(compare_reports(baseline(), seven_percent_at_n1(""), off).exit,
            CompareExit::regression);
  EXPECT_EQ(parse_machine_allowance("auto"), MachineAllowance::by_uuid);
  EXPECT_EQ(parse_machine_allowance("on"), MachineAllowance::on);
  EXPECT_EQ(parse_machine_allowance("off"), MachineAllowance::off);
  EXPECT_EQ(parse_machine_allowance("yes"), std::nullopt);
}

TEST(Compare, TheRerunIsJudgedByItsOwnGpu) {
  // The current run on another GPU flags nothing at 7 %; its re-run, on the baseline's GPU,
  // is judged by the tight rule (a warning says so). Here the current run flags 10 % at N=1.
  Report cur = on_gpu(kGpuB);
  scale_variant(cur.cases[0], "fused", 1.10);
  Report again = seven_percent_at_n1(kGpuA);
  const CompareOutcome o = compare_reports(on_gpu(kGpuA), cur, {}, &again);
  EXPECT_EQ(o.exit, CompareExit::regression) << o.message;
  bool warned = false;
  for (const std::string& w : o.warnings)
    warned |= w.find("re-run against the baseline: baseline measured on this GPU") == 0;
  EXPECT_TRUE(warned);
}

TEST(Compare, IdenticalRunsPassAndRefresh) {
  const CompareOutcome o = compare_reports(baseline(), baseline(), {});
  EXPECT_EQ(o.exit_code(), 0) << o.message;
  EXPECT_EQ(o.count(Verdict::pass), 2);
  const auto refreshed = refresh_baseline(
      o, baseline(), {provenance_of(baseline()), provenance_of(baseline())}, baseline(), nullptr);
  ASSERT_TRUE(refreshed.has_value());
  EXPECT_EQ(refreshed->report.cases.size(), 2u);
}

TEST(Compare, RefreshedBaselineNeverTakesARegression) {
  Report cur = baseline();
  cur.git_revision = "new";
  scale_variant(cur.cases[1], "fused", 1.2);
  const Report base = baseline();
  const std::vector<CaseProvenance> prov(2, provenance_of(base));
  const CompareOutcome failing = compare_reports(base, cur, {});
  EXPECT_EQ(failing.exit_code(), 1);
  EXPECT_FALSE(refresh_baseline(failing, base, prov, cur, nullptr).has_value());

  CompareOptions accept;
  accept.accept = {cur.cases[1].id};
  const CompareOutcome accepted = compare_reports(base, cur, accept);
  EXPECT_EQ(accepted.exit_code(), 0) << accepted.message;
  EXPECT_EQ(find(accepted, cur.cases[1].id).verdict, Verdict::accepted);
  const auto r = refresh_baseline(accepted, base, prov, cur, nullptr);
  ASSERT_TRUE(r.has_value());
  EXPECT_DOUBLE_EQ(r->report.cases[1].variants[0].us.median, 12.0);
  EXPECT_EQ(r->measured_by[1].git_revision, "new");
}

TEST(Compare, RefreshedBaselineKeepsMissingAndAddsNew) {
  const Report base = baseline();
  Report cur = baseline();
  cur.git_revision = "new";
  cur.cases.erase(cur.cases.begin());  // N=1 missing
  cur.cases.push_back(timed_case(DType::fp16, CacheDType::auto_, 8, 8, "graph", 3.0, 2.0, 0.01));
  CompareOptions o;
  o.allow_missing = true;
  std::vector<CaseProvenance> prov(2, provenance_of(base));
  prov[0].git_revision = "older";  // the N=1 case came from an earlier refresh
  const CompareOutcome out = compare_reports(base, cur, o);
  EXPECT_EQ(out.exit_code(), 0) << out.message;
  const auto r = refresh_baseline(out, base, prov, cur, nullptr);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->report.cases.size(), 3u);
  EXPECT_EQ(r->report.cases[0].id, base.cases[0].id);
  EXPECT_EQ(r->measured_by[0].git_revision, "older");
  EXPECT_EQ(r->measured_by[1].git_revision, "new");
  EXPECT_EQ(r->report.cases[2].id, cur.cases[1].id);
  EXPECT_EQ(r->measured_by[2].git_revision, "new");
}

TEST(Compare, CountsSpeedupsWithinEachOthersIntervals) {
  Report cur = baseline();
  scale_variant(cur.cases[0], "pair", 1.05);  // 1.70x -> 1.785x: outside the tight intervals
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::pass);  // the fused time did not move
  EXPECT_EQ(o.speedups_compared, 2);
  EXPECT_EQ(o.speedups_within_intervals, 1);
  EXPECT_NE(render_comparison(o, TableFormat::text)
                .find("1 of 2 speedups lie within each other's intervals"),
            std::string::npos);
}

TEST(Compare, NothingInCommonIsAUsageError) {
  Report cur = baseline();
  for (CaseResult& c : cur.cases)
    c.mode = "cold";
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  EXPECT_EQ(o.exit, CompareExit::usage);
  EXPECT_NE(o.message.find("no case"), std::string::npos);
}

TEST(Compare, AcceptOfAnUnknownIdIsAUsageError) {
  CompareOptions o;
  o.accept = {"bf16|auto|1x1x2|neox|nhd|N=3"};
  const CompareOutcome out = compare_reports(baseline(), baseline(), o);
  EXPECT_EQ(out.exit, CompareExit::usage);
  EXPECT_NE(out.message.find("1x1x2"), std::string::npos);
}

TEST(Render, FailingRowsFirstWithDeltaAndHeader) {
  Report cur = baseline();
  cur.cases.push_back(timed_case(DType::fp16, CacheDType::auto_, 8, 8, "graph", 3.0, 2.0, 0.01));
  scale_variant(cur.cases[1], "fused", 1.2);
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  const std::string md = render_comparison(o, TableFormat::markdown);
  EXPECT_EQ(md.rfind("### rope-kv-bench perf gate: FAIL (regression)", 0), 0u) << md;
  EXPECT_NE(md.find("abc1234-dirty"), std::string::npos);
  EXPECT_NE(md.find("2025-01-31T12:00:00Z"), std::string::npos);
  EXPECT_NE(md.find("NVIDIA H200 (132 SMs"), std::string::npos);
  EXPECT_NE(md.find("+20.0"), std::string::npos) << md;
  EXPECT_NE(md.find("**GPU:** GPU of both runs unknown (reports without uuid): between-machine "
                    "allowance applies"),
            std::string::npos)
      << md;
  EXPECT_NE(render_comparison(o, TableFormat::text).find("\ngpu:      GPU of both runs unknown"),
            std::string::npos);
  // The regression (N=2048) is listed before the added case; the passing N=1 is not listed.
  EXPECT_LT(md.find("N=2048"), md.find("N=8"));
  EXPECT_EQ(md.find("N=1`"), std::string::npos) << md;
  const std::string all = render_comparison(o, TableFormat::text, true);
  EXPECT_NE(all.find("N=1 "), std::string::npos) << all;
}

TEST(Render, JsonAndGithubAnnotations) {
  Report cur = baseline();
  scale_variant(cur.cases[1], "fused", 1.2);
  const CompareOutcome o = compare_reports(baseline(), cur, {});
  const auto j = nlohmann::json::parse(verdict_json(o));
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["cases"][0]["verdict"], "regression");
  EXPECT_NEAR(j["cases"][0]["gates"][0]["delta_pct"].get<double>(), 20.0, 1e-9);
  EXPECT_GT(j["cases"][0]["gates"][0]["threshold_pct"].get<double>(), 2.0);
  // Neither report carries a uuid: the GPUs are unknown, the allowance applies (2 % at
  // N=2048, under the floor there).
  EXPECT_TRUE(j["same_gpu"].is_null());
  EXPECT_DOUBLE_EQ(j["cases"][0]["gates"][0]["machine_allowance_pct"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["cases"][0]["machine_allowance_pct"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["rule"]["machine_allowance_pct"]["decode"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(j["rule"]["machine_allowance_pct"]["mid"].get<double>(), 5.5);
  EXPECT_DOUBLE_EQ(j["rule"]["machine_allowance_pct"]["large"].get<double>(), 2.0);
  EXPECT_EQ(j["rule"]["decode_max_tokens"].get<int>(), 8);
  EXPECT_EQ(j["rule"]["mid_max_tokens"].get<int>(), 1024);
  EXPECT_EQ(j["rule"]["machine_allowance"], "auto");
  EXPECT_EQ(j["rule"]["machine_allowance_applies"], true);
  EXPECT_EQ(j["baseline"]["gpu_uuid"], "");
  // On one GPU: same_gpu true, no allowance anywhere.
  Report same_cur = cur;
  same_cur.device.uuid = kGpuA;
  const auto same =
      nlohmann::json::parse(verdict_json(compare_reports(on_gpu(kGpuA), same_cur, {})));
  EXPECT_EQ(same["same_gpu"], true);
  EXPECT_EQ(same["rule"]["machine_allowance_applies"], false);
  EXPECT_EQ(same["cases"][0]["machine_allowance_pct"].get<double>(), 0);
  EXPECT_EQ(same["cases"][0]["gates"][0]["machine_allowance_pct"].get<double>(), 0);
  EXPECT_EQ(same["current"]["gpu_uuid"], kGpuA);
  EXPECT_EQ(same["rule"]["description"].get<std::string>().find("machine allowance"),
            std::string::npos);
  EXPECT_NE(j["rule"]["description"].get<std::string>().find(
                "machine allowance 8% at N <= 8, 5.5% at N <= 1024, 2% above"),
            std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(
                verdict_json(compare_reports(on_gpu(kGpuA), on_gpu(kGpuB), {})))["same_gpu"],
            false);
  EXPECT_EQ(j["cases"][0]["gates"][0]["evidence"]["method"], "median-z");
  const std::string gh = github_annotations(o);
  EXPECT_EQ(gh.rfind("::error title=perf gate regression::bf16|auto|32x8x128|neox|nhd|N=2048", 0),
            0u)
      << gh;
  EXPECT_NE(gh.find("%"), std::string::npos);  // the "+20.0%" in the message is escaped
}

// ---- the command: outputs checked first, written whole, refreshed only on a pass
struct CommandFiles {
  std::string dir = per_process_temp_dir() + "cmd/";
  std::string base = dir + "base.json", cur = dir + "cur.json";
  CommandFiles(const Report& b, const Report& c) {
    std::filesystem::create_directories(dir);
    write_report_atomically(b, base);
    write_report_atomically(c, cur);
  }
};

TEST(CompareCommand, WritesOutputsAndRefreshedBaselineOnPass) {
  CommandFiles f(baseline(), baseline());
  CompareRequest r;
  r.baseline_path = f.base;
  r.current_path = f.cur;
  r.json_out = f.dir + "out/verdict.json";
  r.markdown_out = f.dir + "out/comment.md";
  r.refreshed_baseline_out = f.dir + "out/refreshed.json";
  r.github = true;
  const std::string summary = f.dir + "summary.md";
  ::setenv("GITHUB_STEP_SUMMARY", summary.c_str(), 1);
  std::ostringstream out;
  EXPECT_EQ(run_compare_command(r, out), 0) << out.str();
  ::unsetenv("GITHUB_STEP_SUMMARY");
  EXPECT_NE(out.str().find("compare: PASS"), std::string::npos);
  const Report refreshed = read_report(r.refreshed_baseline_out);
  EXPECT_EQ(refreshed.cases.size(), 2u);
  const auto prov = read_case_provenance(r.refreshed_baseline_out, refreshed);
  EXPECT_EQ(prov[0].git_revision, "abc1234-dirty");
  std::ifstream md(summary);
  std::stringstream text;
  text << md.rdbuf();
  EXPECT_NE(text.str().find("### rope-kv-bench perf gate: PASS"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(r.json_out));
}

TEST(CompareCommand, NoRefreshedBaselineOnRegression) {
  Report cur = baseline();
  scale_variant(cur.cases[0], "fused", 1.3);
  CommandFiles f(baseline(), cur);
  CompareRequest r;
  r.baseline_path = f.base;
  r.current_path = f.cur;
  r.refreshed_baseline_out = f.dir + "refreshed-regressed.json";
  std::ostringstream out;
  EXPECT_EQ(run_compare_command(r, out), 1);
  EXPECT_FALSE(std::filesystem::exists(r.refreshed_baseline_out));
  EXPECT_NE(out.str().find("refreshed baseline not written"), std::string::npos);
}

TEST(CompareCommand, BadOutputPathFailsBeforeReadingReports) {
  CompareRequest r;
  r.baseline_path = "/no/such/baseline.json";  // would fail later; the output path fails first
  r.current_path = "/no/such/current.json";
  r.json_out = per_process_temp_dir();  // a folder
  std::ostringstream out;
  try {
    run_compare_command(r, out);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
}

TEST(CompareCommand, OutputMayNotOverwriteAnInput) {
  CommandFiles f(baseline(), baseline());
  CompareRequest r;
  r.baseline_path = f.base;
  r.current_path = f.cur;
  r.refreshed_baseline_out = f.base;
  std::ostringstream out;
  EXPECT_THROW(run_compare_command(r, out), std::runtime_error);
}

TEST(Provenance, MalformedMeasuredByNamesTheKey) {
  const std::string path = per_process_temp_dir() + "bad-provenance.json";
  auto j = nlohmann::json::parse(report_to_string(baseline()));
  j["cases"][1]["measured_by"] = {{"git_revision", 5}};
  std::ofstream(path) << j.dump();
  try {
    read_case_provenance(path, read_report(path));
    FAIL() << "no error";
  } catch (const ReportFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("cases[1].measured_by.git_revision"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rkv
