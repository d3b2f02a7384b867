// The run history: every case of every report added, in an SQLite database (one file), so trends
// across revisions can be shown (`history show`, `dashboard`). Runs are keyed by the report's
// content hash: adding the same report twice changes nothing. Writers take the write lock up
// front (BEGIN IMMEDIATE) in WAL mode with a busy timeout, so concurrent CI jobs adding reports
// queue instead of losing rows. docs/history.md describes the tables.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/history_schema.h"
#include "history/sqlite_handle.h"
#include "report/report.h"

namespace rkv {

// The default database file when --db is not given, in the current folder.
inline constexpr const char* kDefaultHistoryDb = "rope-kv-history.sqlite";

// One added report.
struct HistoryRun {
  std::int64_t run_id = 0;
  std::string report_hash;  // report_file_hash of the file it was added from
  std::string source;       // the path it was first added from
  int schema_version = 0;
  std::string tool_version, git_revision, git_commit_time_utc, git_branch;
  bool git_dirty = false;
  std::string created_utc, command;
  bool complete = true;
  std::string argv_json, config_path, config_name, config_hash, tags_json, host;
  std::string device_name, device_fingerprint;
  std::string device_uuid;  // "" when the report has none, or the row predates format 2
  std::string timing_json;  // the report's `timing` object; "" in rows that predate format 3
  double copy_bandwidth_gbps = 0, sm_clock_mhz_min = 0, sm_clock_mhz_max = 0;
  int mem_clock_mhz = 0;
  // Counted from its cases.
  int cases = 0, passed = 0, failed = 0;  // failed: incorrect or failed

  // What trends are ordered by: the commit time of the built revision when the report has it
  // (schema version 2), else the time the run was made.
  std::string order_time() const;
};

// One case of one run in one timing mode: the numbers the trends and the dashboard show.
struct HistoryCase {
  std::int64_t run_id = 0;
  std::string case_id, mode, disposition;
  std::int64_t mismatches = 0;
  std::string first_mismatch, detail;
  int fused_n = 0, pair_n = 0;  // 0 when the variant was not timed
  double fused_median_us = 0, fused_q1_us = 0, fused_q3_us = 0;
  double pair_median_us = 0, pair_q1_us = 0, pair_q3_us = 0;
  // The fastest launch and each pass's median (what compare's rule reads besides the quartiles).
  // NaN and empty in rows added before history format 2.
  double fused_min_us = 0, pair_min_us = 0;
  std::vector<double> fused_pass_medians_us, pair_pass_medians_us;
  std::int64_t tokens = 0;  // the case's token count; 0 in rows added before format 2
  double speedup = 0, speedup_lo = 0, speedup_hi = 0;  // NaN when not timed
  std::int64_t min_bytes = 0;
  double floor_us = 0, fused_gbps = 0, fused_pct_of_bandwidth = 0;
  std::string repro;

  bool timed() const { return fused_n > 0 && pair_n > 0; }
};

struct AddOutcome {
  std::int64_t run_id = 0;
  bool added = false;  // false: this report was already in the history
  int cases = 0;
};

class HistoryStore {
 public:
  // `history add`: creates the file and its tables when missing. Throws HistoryError, in one line,
  // for a file that is not SQLite, an SQLite database of something else, or a newer format.
  // Both openers upgrade a history of an older format in place first (upgrade_history).
  static HistoryStore open_for_writing(const std::string& path);
  // Everything else: the file must exist and be a history.
  static HistoryStore open_for_reading(const std::string& path);

  // One transaction: the run and all its cases, or nothing. `content_hash` keys the run
  // (report_file_hash of the file it was read from).
  AddOutcome add(const Report& report, const std::string& source, const std::string& content_hash);

  std::vector<HistoryRun> runs() const;  // in trend order (order_time, then created_utc, run_id)
  // Cases in run trend order; `case_id` / `mode` empty = all.
  std::vector<HistoryCase> cases(const std::string& case_id = "",
                                 const std::optional<std::string>& mode = std::nullopt) const;

 private:
  explicit HistoryStore(std::unique_ptr<SqliteConnection> db) : db_(std::move(db)) {}
  void check_format(bool may_initialize);
  std::unique_ptr<SqliteConnection> db_;
};

// fnv1a64 of the file's JSON in canonical form (keys sorted, no whitespace): the same report
// however formatted hashes the same, and what a later build would add to it does not matter.
// Throws HistoryError when the file cannot be read as JSON.
std::string report_file_hash(const std::string& path);

}  // namespace rkv
