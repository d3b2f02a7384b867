// The run history store and its trends: idempotent adds, trend order, compare's verdicts between
// runs, and one-line refusals of files that are not a history.
#include "history/history_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "history/history_text.h"
#include "history/sqlite_handle.h"
#include "history/trend.h"
#include "report_samples.h"
#include "temp_paths.h"

namespace rkv {
namespace {

std::string fresh_db(const std::string& name) {
  const std::string path = per_process_temp_dir() + name;
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
  return path;
}

// What `history add` keys a run by, for a report in memory: its JSON as the writer makes it.
std::string hash_of(const Report& r) {
  return fnv1a64_text(nlohmann::json(r).dump());
}

std::string refusal_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const HistoryError& e) {
    return e.what();
  }
  return "";
}

TEST(History, AddingTheSameReportTwiceChangesNothing) {
  const std::string db = fresh_db("twice.sqlite");
  const auto samples = testing::report_samples();
  {
    HistoryStore s = HistoryStore::open_for_writing(db);
    const AddOutcome first = s.add(samples[0].report, "a.json", hash_of(samples[0].report));
    EXPECT_TRUE(first.added);
    EXPECT_EQ(first.cases, 3);
    const AddOutcome again = s.add(samples[0].report, "copy-of-a.json", hash_of(samples[0].report));
    EXPECT_FALSE(again.added);
    EXPECT_EQ(again.run_id, first.run_id);
  }
  HistoryStore s = HistoryStore::open_for_writing(db);  // and across processes' reopenings
  EXPECT_FALSE(s.add(samples[0].report, "a.json", hash_of(samples[0].report)).added);
  ASSERT_EQ(s.runs().size(), 1u);
  EXPECT_EQ(s.runs()[0].source, "a.json");
  EXPECT_EQ(s.cases().size(), 3u);
}

// Concurrent `history add`s on a new file: the switch to WAL needs the file to itself, and while
// another connection holds the write lock SQLite refuses it at once, without the busy handler
// (waiting could deadlock). The switch must wait for the lock instead of failing.
TEST(History, WalSwitchWaitsForAnotherConnectionsWriteLock) {
  const std::string db = fresh_db("wal-wait.sqlite");
  SqliteConnection other(db, true);
  other.exec("CREATE TABLE t(x)");
  other.exec("BEGIN IMMEDIATE");
  other.exec("INSERT INTO t VALUES (1)");
  SqliteConnection opener(db, false);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    other.exec("COMMIT");
  });
  std::string refusal;
  try {
    opener.ensure_wal();
  } catch (const HistoryError& e) {
    refusal = e.what();
  }
  release.join();
  EXPECT_EQ(refusal, "");
  SqliteStatement mode(opener, "PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.text(0), "wal");
  SqliteStatement rows(opener, "SELECT count(*) FROM t");  // the other's write is kept
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.integer(0), 1);
}

TEST(History, RunsAreInCommitTimeOrderAndCasesKeepTheirNumbers) {
  const std::string db = fresh_db("order.sqlite");
  auto samples = testing::report_samples();
  HistoryStore s = HistoryStore::open_for_writing(db);
  for (int i : {3, 0, 2, 1})  // added out of order
    s.add(samples[i].report, samples[i].file, hash_of(samples[i].report));
  const std::vector<HistoryRun> runs = s.runs();
  ASSERT_EQ(runs.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(runs[i].git_revision, samples[i].report.git_revision);
  EXPECT_EQ(runs[3].passed, 2);
  EXPECT_EQ(runs[3].failed, 1);
  EXPECT_EQ(runs[0].tags_json, R"({"ci":"nightly","run":"1"})");
  EXPECT_DOUBLE_EQ(runs[0].sm_clock_mhz_min, 1965.5);
  // Each run keeps its timing settings as the report wrote them.
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(runs[i].timing_json, nlohmann::json(samples[i].report.timing).dump()) << i;

  const std::vector<HistoryCase> b = s.cases(samples[0].report.cases[1].id, std::string("graph"));
  ASSERT_EQ(b.size(), 4u);
  const CaseResult& want = samples[2].report.cases[1];
  EXPECT_DOUBLE_EQ(b[2].fused_median_us, want.find_variant(Variant::fused)->us.median);
  EXPECT_DOUBLE_EQ(b[2].pair_q3_us, want.find_variant(Variant::pair)->us.q3);
  EXPECT_DOUBLE_EQ(b[2].speedup_lo, want.speedup->lo);
  EXPECT_DOUBLE_EQ(b[2].fused_pct_of_bandwidth, want.fused_pct_of_bandwidth);
  EXPECT_EQ(b[2].repro, want.repro);
  const std::vector<HistoryCase> c = s.cases(samples[0].report.cases[2].id);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[3].disposition, "incorrect");
  EXPECT_EQ(c[3].mismatches, 3);
  EXPECT_TRUE(std::isnan(c[3].speedup));  // not timed: NULL, read as NaN
  EXPECT_FALSE(c[3].timed());
}

TEST(History, TrendsCarryComparesVerdicts) {
  const std::string db = fresh_db("trend.sqlite");
  HistoryStore s = HistoryStore::open_for_writing(db);
  for (const auto& r : testing::report_samples())
    s.add(r.report, r.file, hash_of(r.report));
  const std::vector<HistoryRun> runs = s.runs();
  const std::vector<Trend> trends = build_trends(runs, s.cases());
  ASSERT_EQ(trends.size(), 3u);  // validate-only rows (mode "") are not trends
  const Trend* b = nullptr;
  for (const Trend& t : trends)
    if (t.case_id.find("N=2048") != std::string::npos) b = &t;
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->points.size(), 4u);
  EXPECT_FALSE(b->points[0].verdict.has_value());
  EXPECT_EQ(b->points[1].verdict, Verdict::pass);
  EXPECT_EQ(b->points[2].verdict, Verdict::regression);
  EXPECT_NE(b->points[2].note.find("fused 10.100 -> 13.000 us"), std::string::npos)
      << b->points[2].note;
  EXPECT_EQ(b->points[3].verdict, Verdict::win);
  for (const Trend& t : trends) {
    if (t.mode == "cold") {
      EXPECT_EQ(t.latest().verdict, Verdict::not_passed);
    }
  }

  const std::string table = render_trend_tables({*b});
  EXPECT_NE(table.find("regression"), std::string::npos);
  EXPECT_NE(table.find("13.00"), std::string::npos);
  const nlohmann::json j = history_to_json(runs, s.cases());
  EXPECT_EQ(j["runs"].size(), 6u);
  EXPECT_TRUE(j["runs"][5]["sm_clock_mhz_min"].is_null());  // validate run: nothing timed
}

TEST(History, DuplicateCaseInOneReportIsRefusedAndNothingIsAdded) {
  const std::string db = fresh_db("dup.sqlite");
  Report r = testing::report_samples()[0].report;
  r.cases.push_back(r.cases[0]);
  HistoryStore s = HistoryStore::open_for_writing(db);
  EXPECT_NE(refusal_of([&] { s.add(r, "dup.json", hash_of(r)); }).find("appears twice"),
            std::string::npos);
  EXPECT_TRUE(s.runs().empty());
}

TEST(History, FilesThatAreNotAHistoryAreRefusedInOneLine) {
  const std::string text = fresh_db("notes.txt");
  std::ofstream(text) << "these are not the tables you are looking for\n";
  for (bool writing : {true, false}) {
    const std::string why = refusal_of([&] {
      writing ? (void)HistoryStore::open_for_writing(text)
              : (void)HistoryStore::open_for_reading(text);
    });
    EXPECT_NE(why.find("not an SQLite database"), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos);
  }
  EXPECT_NE(refusal_of([&] {
              (void)HistoryStore::open_for_reading(fresh_db("none.sqlite"));
            }).find("no such file"),
            std::string::npos);
}

}  // namespace
}  // namespace rkv

namespace rkv {
namespace {

TEST(History, TrendsOrderTokenCountsAsNumbers) {
  HistoryRun run;
  run.run_id = 1;
  std::vector<HistoryCase> cases;
  for (const char* n : {"N=16384", "N=512", "N=2048", "N=1"}) {
    HistoryCase c;
    c.run_id = 1;
    c.case_id = std::string("bf16|auto|32x8x128|neox|nhd|") + n;
    c.mode = "cold";
    cases.push_back(c);
  }
  const std::vector<HistoryRun> runs = {run};  // outlives the trends, which point into it
  const std::vector<Trend> trends = build_trends(runs, cases);
  ASSERT_EQ(trends.size(), 4u);
  EXPECT_EQ(trends[0].case_id.substr(trends[0].case_id.rfind('|')), "|N=1");
  EXPECT_EQ(trends[1].case_id.substr(trends[1].case_id.rfind('|')), "|N=512");
  EXPECT_EQ(trends[3].case_id.substr(trends[3].case_id.rfind('|')), "|N=16384");
}

}  // namespace
}  // namespace rkv

namespace rkv {
namespace {

TEST(History, FileHashIgnoresFormattingButNotContent) {
  const std::string dir = per_process_temp_dir();
  std::ofstream(dir + "a.json") << R"({"b": 1, "a": [1, 2]})";
  std::ofstream(dir + "b.json") << "{\n  \"a\": [1,2],\n  \"b\": 1\n}\n";
  std::ofstream(dir + "c.json") << R"({"b": 2, "a": [1, 2]})";
  std::ofstream(dir + "d.json") << "{ not json";
  EXPECT_EQ(report_file_hash(dir + "a.json"), report_file_hash(dir + "b.json"));
  EXPECT_NE(report_file_hash(dir + "a.json"), report_file_hash(dir + "c.json"));
  EXPECT_NE(refusal_of([&] { report_file_hash(dir + "d.json"); }).find("cannot be read as JSON"),
            std::string::npos);
}

}  // namespace
}  // namespace rkv
