// A history of the previous format (1) upgraded in place: made here with format 1's own tables
// (the DDL below is a copy of what that format's build created, kept as it was), then opened by
// the store: it must end at the current format with its rows unchanged, the added columns NULL,
// the same tables a new file gets, and opening it again must change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/history_store.h"
#include "history/trend.h"
#include "report_samples.h"
#include "temp_paths.h"

namespace rkv {
namespace {

// Format 1's tables, as its build made them.
constexpr const char* kFormat1Ddl = R"sql(
CREATE TABLE runs (
  run_id INTEGER PRIMARY KEY,
  report_hash TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  tool_version TEXT NOT NULL,
  git_revision TEXT NOT NULL,
  git_commit_time_utc TEXT NOT NULL,
  git_branch TEXT NOT NULL,
  git_dirty INTEGER NOT NULL,
  created_utc TEXT NOT NULL,
  command TEXT NOT NULL,
  complete INTEGER NOT NULL,
  argv_json TEXT NOT NULL,
  config_path TEXT NOT NULL,
  config_name TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  tags_json TEXT NOT NULL,
  host TEXT NOT NULL,
  device_name TEXT NOT NULL,
  device_fingerprint TEXT NOT NULL,
  copy_bandwidth_gbps REAL,
  sm_clock_mhz_min REAL,
  sm_clock_mhz_max REAL,
  mem_clock_mhz INTEGER NOT NULL
);
CREATE TABLE cases (
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  case_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  disposition TEXT NOT NULL,
  mismatches INTEGER NOT NULL,
  first_mismatch TEXT NOT NULL,
  detail TEXT NOT NULL,
  fused_n INTEGER NOT NULL,
  fused_median_us REAL,
  fused_q1_us REAL,
  fused_q3_us REAL,
  pair_n INTEGER NOT NULL,
  pair_median_us REAL,
  pair_q1_us REAL,
  pair_q3_us REAL,
  speedup REAL,
  speedup_lo REAL,
  speedup_hi REAL,
  min_bytes INTEGER NOT NULL,
  floor_us REAL,
  fused_gbps REAL,
  fused_pct_of_bandwidth REAL,
  repro TEXT NOT NULL,
  PRIMARY KEY (run_id, case_id, mode)
);
)sql";

const char* const kCaseB = "bf16|fp8_e4m3|32x8x128|neox|nhd|N=2048";

std::string fresh_db(const std::string& name) {
  const std::string path = per_process_temp_dir() + name;
  for (const char* suffix : {"", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
  return path;
}

// A format-1 history holding two runs of case B in graph mode, 10.0 us then 11.0 us: as the
// previous build's `history add` would have left it (application_id set, user_version 1).
void make_format1_history(const std::string& path) {
  SqliteConnection db(path, true);
  db.exec(kFormat1Ddl);
  db.exec("PRAGMA application_id=" + std::to_string(kHistoryApplicationId));
  db.exec("PRAGMA user_version=1");
  // The samples' device (report_samples.h), so old and new rows of one case are comparable.
  const std::string fingerprint = testing::base_report().device.fingerprint();
  for (int run = 1; run <= 2; ++run) {
    db.exec("INSERT INTO runs VALUES (" + std::to_string(run) + ", 'fnv1a64:000000000000000" +
            std::to_string(run) + "', 'old.json', 2, '0.1.0', 'abc', '', 'main', 0, '2026-01-0" +
            std::to_string(run) +
            "T11:00:00Z', 'bench', 1, '[]', '', '', '', '{}', 'host', 'NVIDIA H200', "
            "'" +
            fingerprint + "', 4200.0, 1980.0, 1980.0, 3201)");
    const double fused = run == 1 ? 10.0 : 11.0;
    db.exec("INSERT INTO cases VALUES (" + std::to_string(run) + ", '" + kCaseB +
            "', 'graph', 'passed', 0, '', '', 300, " + std::to_string(fused) + ", " +
            std::to_string(fused - 0.05) + ", " + std::to_string(fused + 0.05) +
            ", 300, 20.0, 19.9, 20.1, 2.0, 1.9, 2.1, 1000, 0.5, 400.0, 9.5, 'rope-kv-bench x')");
  }
}

std::int64_t user_version(const std::string& path) {
  SqliteConnection db(path, false);
  SqliteStatement q(db, "PRAGMA user_version");
  return q.step() ? q.integer(0) : -1;
}

// (name, type, notnull) of every column of `table`, in order.
std::vector<std::string> columns(const std::string& path, const std::string& table) {
  SqliteConnection db(path, false);
  SqliteStatement q(db, "SELECT name, type, \"notnull\" FROM pragma_table_info(?1) ORDER BY cid");
  q.bind(1, table);
  std::vector<std::string> out;
  while (q.step())
    out.push_back(q.text(0) + " " + q.text(1) + (q.integer(2) ? " NOT NULL" : ""));
  return out;
}

TEST(HistoryUpgrade, Format1FileIsUpgradedInPlaceAndKeepsItsRows) {
  const std::string old_db = fresh_db("format1.sqlite");
  make_format1_history(old_db);
  ASSERT_EQ(user_version(old_db), 1);

  {
    const HistoryStore s = HistoryStore::open_for_reading(old_db);  // `history list` upgrades too
    const std::vector<HistoryRun> runs = s.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].source, "old.json");
    EXPECT_EQ(runs[1].created_utc, "2026-01-02T11:00:00Z");
    EXPECT_EQ(runs[1].device_uuid, "");  // added column, NULL in the old rows
    EXPECT_EQ(runs[1].timing_json, "");  // format 3's, NULL there too
    const std::vector<HistoryCase> cases = s.cases();
    ASSERT_EQ(cases.size(), 2u);
    EXPECT_DOUBLE_EQ(cases[1].fused_median_us, 11.0);
    EXPECT_DOUBLE_EQ(cases[1].fused_q1_us, 10.95);
    EXPECT_DOUBLE_EQ(cases[1].pair_q3_us, 20.1);
    EXPECT_EQ(cases[1].repro, "rope-kv-bench x");
    EXPECT_TRUE(std::isnan(cases[1].fused_min_us));
    EXPECT_TRUE(std::isnan(cases[1].pair_min_us));
    EXPECT_TRUE(cases[1].fused_pass_medians_us.empty());
    EXPECT_EQ(cases[1].tokens, 0);
  }
  EXPECT_EQ(user_version(old_db), kHistoryFormatVersion);
  {
    SqliteConnection db(old_db, false);
    SqliteStatement q(db,
                      "SELECT count(*) FROM cases WHERE fused_min_us IS NULL AND "
                      "pair_min_us IS NULL AND tokens IS NULL AND "
                      "fused_pass_medians_json IS NULL AND pair_pass_medians_json IS NULL");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), 2);
  }

  // The upgraded tables are the tables a new file gets.
  const std::string new_db = fresh_db("format-current.sqlite");
  (void)HistoryStore::open_for_writing(new_db);
  for (const char* table : {"runs", "cases"})
    EXPECT_EQ(columns(old_db, table), columns(new_db, table)) << table;

  // Idempotent: upgrading an upgraded file again, or one whose format number was lost after its
  // columns were added, changes nothing and fails nothing.
  const auto before = columns(old_db, "cases");
  {
    SqliteConnection db(old_db, false);
    upgrade_history(db);
    db.exec("PRAGMA user_version=1");
  }
  (void)HistoryStore::open_for_writing(old_db);
  EXPECT_EQ(user_version(old_db), kHistoryFormatVersion);
  EXPECT_EQ(columns(old_db, "cases"), before);
}

TEST(HistoryUpgrade, OldRowsAreJudgedWithTheLowerQuartileNewRowsWithTheFastestLaunch) {
  const std::string db = fresh_db("mixed.sqlite");
  make_format1_history(db);
  HistoryStore s = HistoryStore::open_for_writing(db);
  const auto samples = testing::report_samples();
  const Report& r = samples[0].report;
  ASSERT_TRUE(s.add(r, "new.json", fnv1a64_text(nlohmann::json(r).dump())).added);
  const std::vector<HistoryRun> runs = s.runs();
  const std::vector<HistoryCase> rows = s.cases(kCaseB, std::string("graph"));
  ASSERT_EQ(rows.size(), 3u);  // the sample (built 2026-01-01T10:00), then the two old rows
  int with_min = 0;
  for (const HistoryCase& c : rows)
    if (!std::isnan(c.fused_min_us)) {
      ++with_min;
      EXPECT_DOUBLE_EQ(c.fused_min_us, r.cases[1].find_variant(Variant::fused)->us.min);
      EXPECT_EQ(c.tokens, 2048);
    }
  EXPECT_EQ(with_min, 1);
  // Old and new rows side by side still make a trend with a verdict at every later point.
  const std::vector<Trend> trends = build_trends(runs, s.cases());
  const auto b = std::find_if(trends.begin(), trends.end(), [](const Trend& t) {
    return t.case_id == kCaseB && t.mode == "graph";
  });
  ASSERT_NE(b, trends.end());
  ASSERT_EQ(b->points.size(), 3u);
  for (std::size_t i = 1; i < b->points.size(); ++i) {
    EXPECT_TRUE(b->points[i].verdict.has_value()) << i << ": " << b->points[i].note;
  }
  // Between the two old rows the lower quartiles (9.95 -> 10.95 us) stand in for the fastest
  // launches: the floor shift is theirs.
  EXPECT_EQ(b->points[2].verdict, Verdict::regression) << b->points[2].note;
  EXPECT_NE(b->points[2].note.find("fastest +10.1%"), std::string::npos) << b->points[2].note;
}

TEST(HistoryUpgrade, HistoryWithoutAFormatNumberIsRefusedInOneLine) {
  const std::string db = fresh_db("format0.sqlite");
  make_format1_history(db);
  { SqliteConnection(db, false).exec("PRAGMA user_version=0"); }
  std::string why;
  try {
    (void)HistoryStore::open_for_reading(db);
  } catch (const HistoryError& e) {
    why = e.what();
  }
  EXPECT_NE(why.find("history format 0 is not one this rope-kv-bench knows (1 to"),
            std::string::npos)
      << why;
  EXPECT_EQ(user_version(db), 0);  // left as it was
}

}  // namespace
}  // namespace rkv
