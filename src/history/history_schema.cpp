#include "history/history_schema.h"

#include <string>

namespace rkv {
namespace {

// The tables as format 1 made them. Never edit: later formats add columns below, so an old file
// and a new one go through the same steps.
constexpr const char* kFormat1Tables = R"sql(
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

// A column a later format added. Always nullable: the rows already in an upgraded file have no
// value for it (SQLite's ADD COLUMN fills them with NULL).
struct AddedColumn {
  int format;  // the format that added it
  const char* table;
  const char* name;
  const char* type;
};

constexpr AddedColumn kAddedColumns[] = {
    {2, "runs", "device_uuid", "TEXT"},  // decides compare's machine allowance
    {2, "cases", "tokens", "INTEGER"},   // the allowance's token class
    {2, "cases", "fused_min_us", "REAL"},
    {2, "cases", "fused_pass_medians_json", "TEXT"},  // [µs, ...], one per pass
    {2, "cases", "pair_min_us", "REAL"},
    {2, "cases", "pair_pass_medians_json", "TEXT"},
    {3, "runs", "timing_json", "TEXT"},  // the report's `timing` object
};

bool has_column(const SqliteConnection& db, const std::string& table, const std::string& column) {
  SqliteStatement q(db, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2");
  q.bind(1, table).bind(2, column);
  return q.step() && q.integer(0) > 0;
}

// From `from` to the current format, inside the caller's transaction.
void add_columns_since(SqliteConnection& db, std::int64_t from) {
  for (const AddedColumn& c : kAddedColumns)
    if (c.format > from && !has_column(db, c.table, c.name))
      db.exec(std::string("ALTER TABLE ") + c.table + " ADD COLUMN " + c.name + " " + c.type);
  db.exec("PRAGMA user_version=" + std::to_string(kHistoryFormatVersion));
}

}  // namespace

const char* const kRunColumns =
    "run_id, report_hash, source, schema_version, tool_version, git_revision, "
    "git_commit_time_utc, git_branch, git_dirty, created_utc, command, complete, argv_json, "
    "config_path, config_name, config_hash, tags_json, host, device_name, device_fingerprint, "
    "copy_bandwidth_gbps, sm_clock_mhz_min, sm_clock_mhz_max, mem_clock_mhz, device_uuid, "
    "timing_json";

const char* const kCaseColumns =
    "run_id, case_id, mode, disposition, mismatches, first_mismatch, detail, fused_n, "
    "fused_median_us, fused_q1_us, fused_q3_us, pair_n, pair_median_us, pair_q1_us, pair_q3_us, "
    "speedup, speedup_lo, speedup_hi, min_bytes, floor_us, fused_gbps, fused_pct_of_bandwidth, "
    "repro, tokens, fused_min_us, fused_pass_medians_json, pair_min_us, pair_pass_medians_json";

void create_history_tables(SqliteConnection& db) {
  db.exec(kFormat1Tables);
  db.exec("PRAGMA application_id=" + std::to_string(kHistoryApplicationId));
  add_columns_since(db, 1);
}

void upgrade_history(SqliteConnection& db) {
  SqliteTransaction t(db);
  const std::int64_t version = pragma_int(db, "user_version");  // again, under the write lock
  if (version >= kHistoryFormatVersion) return;                 // another process did it
  add_columns_since(db, version);
  t.commit();
}

}  // namespace rkv
