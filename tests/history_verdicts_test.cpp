// The dashboard's "vs previous" verdict is compare's verdict: two committed H200 reports (and
// doctored copies of them, gate_doctor.h) added to a new history one after the other must get,
// case by case, the verdict `compare` gives the same two reports with its default options. What
// the history stores per variant (quartiles, fastest launch, pass medians), per case (token
// count) and per run (GPU uuid) is what the rule reads, so nothing may differ.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate/compare.h"
#include "gate_doctor.h"
#include "history/history_store.h"
#include "history/trend.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using testing::committed_report;

// Slower by `factor` in the bulk of its launches (median, quartiles, every pass's median) but
// not in its fastest launch: compare calls that "noted" (the fastest launches did not slow
// down). The history must keep the fastest launch to agree; the lower quartile would have moved.
void slow_bulk_keep_fastest(Report& r, double factor) {
  for (CaseResult& c : r.cases)
    for (VariantResult& v : c.variants) {
      if (v.variant != "fused") continue;
      for (Summary* s : {&v.us}) {
        s->median *= factor;
        s->q1 *= factor;
        s->q3 *= factor;
      }
      for (Summary& p : v.passes) {
        p.median *= factor;
        p.q1 *= factor;
        p.q3 *= factor;
      }
    }
}

// 6 % slower, but its passes disagree: every other pass's median 15 % under, the rest 15 %
// over. The rule's standard error takes the spread between passes, so the evidence is weak and
// compare calls the cases "noted"; a history without the pass medians would say "regression".
void slower_with_passes_apart(Report& r) {
  for (CaseResult& c : r.cases) {
    testing::scale_variant(c, "fused", 1.06);
    for (VariantResult& v : c.variants) {
      if (v.variant != "fused") continue;
      for (std::size_t i = 0; i < v.passes.size(); ++i)
        v.passes[i].median = v.us.median * (i % 2 ? 1.15 : 0.85);
    }
  }
}

struct Pair {
  std::string name;
  std::string baseline, current;  // under results/h200/
  std::function<void(Report& baseline, Report& current)> doctor;
  bool expect_some_not_pass;  // the doctoring must make at least one case other than `pass`
};

void PrintTo(const Pair& p, std::ostream* os) {
  *os << p.name;
}

const char* const kRun1 = "wave2/seed-table-run1.json";
const char* const kRun2 = "wave2/seed-table-run2.json";
const char* const kRun3 = "wave2/seed-table-run3.json";

const std::vector<Pair>& pairs() {
  static const std::vector<Pair> all = {
      {"wave2_run1_run2", kRun1, kRun2, [](Report&, Report&) {}, false},
      {"wave2_run2_run3", kRun2, kRun3, [](Report&, Report&) {}, false},
      {"wave3_fresh1_fresh2", "wave3/seed-table-fresh1.json", "wave3/seed-table-fresh2.json",
       [](Report&, Report&) {}, false},
      {"one_gpu", kRun1, kRun2, testing::stamp_same_gpu, false},
      {"one_gpu_fused_6pct_slower", kRun1, kRun2,
       [](Report& b, Report& c) {
         testing::stamp_same_gpu(b, c);
         for (CaseResult& k : c.cases)
           testing::scale_variant(k, "fused", 1.06);
       },
       true},
      {"one_gpu_bulk_8pct_slower_fastest_not", kRun1, kRun2,
       [](Report& b, Report& c) {
         testing::stamp_same_gpu(b, c);
         slow_bulk_keep_fastest(c, 1.08);
       },
       true},
      {"one_gpu_6pct_slower_passes_apart", kRun1, kRun2,
       [](Report& b, Report& c) {
         testing::stamp_same_gpu(b, c);
         slower_with_passes_apart(c);
       },
       true},
      {"two_gpus_fused_4pct_slower", kRun1, kRun2,
       [](Report& b, Report& c) {
         testing::stamp_other_gpus(b, c);
         for (CaseResult& k : c.cases)
           testing::scale_variant(k, "fused", 1.04);
       },
       true},
      {"one_gpu_fused_8pct_faster", kRun1, kRun2,
       [](Report& b, Report& c) {
         testing::stamp_same_gpu(b, c);
         for (CaseResult& k : c.cases)
           testing::scale_variant(k, "fused", 1 / 1.08);
       },
       true},
  };
  return all;
}

class HistoryVerdicts : public ::testing::TestWithParam<Pair> {};

TEST_P(HistoryVerdicts, TrendVerdictIsComparesVerdictForEveryCase) {
  const Pair& p = GetParam();
  Report baseline = committed_report(p.baseline);
  Report current = committed_report(p.current);
  p.doctor(baseline, current);
  ASSERT_LT(baseline.created_utc, current.created_utc);  // the trend's order is the run order

  const CompareOutcome want = compare_reports(baseline, current, CompareOptions{});
  ASSERT_FALSE(want.cases.empty()) << want.message;

  const std::string db = per_process_temp_dir() + "verdicts-" + p.name + ".sqlite";
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((db + suffix).c_str());
  HistoryStore s = HistoryStore::open_for_writing(db);
  for (const Report* r : {&baseline, &current})
    ASSERT_TRUE(s.add(*r, p.name, fnv1a64_text(nlohmann::json(*r).dump())).added);
  const std::vector<HistoryRun> runs = s.runs();
  std::map<std::pair<std::string, std::string>, const TrendPoint*> judged;
  const std::vector<Trend> trends = build_trends(runs, s.cases());
  for (const Trend& t : trends)
    if (t.points.size() == 2) judged[{t.case_id, t.mode}] = &t.points[1];

  int not_pass = 0;
  for (const CaseComparison& c : want.cases) {
    const auto it = judged.find({c.id, c.mode});
    ASSERT_NE(it, judged.end()) << c.id << " " << c.mode << ": no second point in the trend";
    ASSERT_TRUE(it->second->verdict.has_value()) << c.id << ": " << it->second->note;
    EXPECT_EQ(to_string(*it->second->verdict), to_string(c.verdict))
        << c.id << " " << c.mode << "\n  trend:   " << it->second->note
        << "\n  compare: " << (c.notes.empty() ? "" : c.notes.back());
    not_pass += c.verdict != Verdict::pass;
  }
  EXPECT_EQ(judged.size(), want.cases.size());
  if (p.expect_some_not_pass) {
    EXPECT_GT(not_pass, 0) << "the doctoring changed no verdict";
  }
}

// Two committed runs on one GPU in a fresh history, the second doctored: the runs, their trends
// and each trend's second point (the points point into the runs and trends held here).
struct Judged {
  std::vector<HistoryRun> runs;
  std::vector<Trend> trends;
  std::vector<const TrendPoint*> second;
};

void judge_doctored(const std::string& name, const std::function<void(Report&, Report&)>& doctor,
                    Judged& out) {
  Report baseline = committed_report(kRun1), current = committed_report(kRun2);
  testing::stamp_same_gpu(baseline, current);
  doctor(baseline, current);
  const std::string db = per_process_temp_dir() + "settings-" + name + ".sqlite";
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((db + suffix).c_str());
  HistoryStore s = HistoryStore::open_for_writing(db);
  for (const Report* r : {&baseline, &current})
    EXPECT_TRUE(s.add(*r, name, fnv1a64_text(nlohmann::json(*r).dump())).added);
  out.runs = s.runs();
  out.trends = build_trends(out.runs, s.cases());
  for (const Trend& t : out.trends)
    if (t.points.size() == 2) out.second.push_back(&t.points[1]);
}

// compare refuses runs timed with other settings (exit 4 without --force); the trend gives such a
// point no verdict and names the settings, as it does for another device.
TEST(HistoryVerdictsSettings, APointTimedWithOtherSettingsGetsNoVerdict) {
  Judged passes;
  judge_doctored(
      "passes", [](Report&, Report& c) { c.timing.passes += 1; }, passes);
  ASSERT_EQ(passes.second.size(), 32u);
  for (const TrendPoint* p : passes.second) {
    EXPECT_FALSE(p->verdict.has_value()) << p->result.case_id;
    EXPECT_EQ(p->note.rfind("timed with other settings than the previous point: passes ", 0), 0u)
        << p->note;
  }
  // Another producer, where both runs timed a producer mode.
  Judged producer;
  judge_doctored(
      "producer",
      [](Report& b, Report& c) {
        for (Report* r : {&b, &c})
          r->timing.modes.push_back(TimingMode::producer_pdl);
        c.timing.producer_read_mib = 96;
      },
      producer);
  ASSERT_EQ(producer.second.size(), 32u);
  for (const TrendPoint* p : producer.second) {
    EXPECT_FALSE(p->verdict.has_value()) << p->result.case_id;
    EXPECT_NE(p->note.find("producer_read_mib 0 vs 96"), std::string::npos) << p->note;
  }
  // The same read without a producer mode decides nothing: every point is judged.
  Judged plain;
  judge_doctored(
      "no-producer-mode", [](Report&, Report& c) { c.timing.producer_read_mib = 96; }, plain);
  ASSERT_EQ(plain.second.size(), 32u);
  for (const TrendPoint* p : plain.second)
    EXPECT_TRUE(p->verdict.has_value()) << p->result.case_id << ": " << p->note;
}

INSTANTIATE_TEST_SUITE_P(CommittedH200, HistoryVerdicts, ::testing::ValuesIn(pairs()),
                         [](const ::testing::TestParamInfo<Pair>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace rkv
