#include "history/history_store.h"

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace rkv {
namespace {

// Trend order: the built commit's time when known, else the run's; ties by run time, then id.
constexpr const char* kRunOrder =
    "COALESCE(NULLIF(r.git_commit_time_utc, ''), r.created_utc), r.created_utc, r.run_id";

// "a, b" -> "r.a, r.b": the column lists above, for a query that joins both tables.
std::string qualified(const std::string& table, const std::string& columns) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t comma = columns.find(", ", start);
    out += table + columns.substr(start, comma - start);
    if (comma == std::string::npos) return out;
    out += ", ";
    start = comma + 2;
  }
}

// The application_id in the file's header (fails first on a file that is not SQLite) and how
// many tables, indexes and the like the file holds.
std::pair<std::int64_t, std::int64_t> header_and_objects(const SqliteConnection& db) {
  const std::int64_t app = pragma_int(db, "application_id");
  SqliteStatement q(db, "SELECT count(*) FROM sqlite_master");
  return {app, q.step() ? q.integer(0) : 0};
}

// "?1, ?2, ..., ?n": the parameters of an INSERT of n values.
std::string parameters(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i)
    out += (i > 1 ? ", ?" : "?") + std::to_string(i);
  return out;
}

// The per-pass medians as stored: a JSON array of numbers, NULL before format 2.
std::string numbers_to_json(const std::vector<double>& values) {
  return nlohmann::json(values).dump();
}

std::vector<double> numbers_from_json(const std::string& text) {
  if (text.empty()) return {};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<double> out;
  if (!j.is_array()) return out;
  for (const nlohmann::json& v : j)
    if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

std::vector<double> pass_medians(const VariantResult* v) {
  std::vector<double> out;
  if (v)
    for (const Summary& p : v->passes)
      out.push_back(p.median);
  return out;
}

HistoryRun read_run(const SqliteStatement& q) {
  HistoryRun r;
  int c = 0;
  r.run_id = q.integer(c++);
  r.report_hash = q.text(c++);
  r.source = q.text(c++);
  r.schema_version = static_cast<int>(q.integer(c++));
  r.tool_version = q.text(c++);
  r.git_revision = q.text(c++);
  r.git_commit_time_utc = q.text(c++);
  r.git_branch = q.text(c++);
  r.git_dirty = q.integer(c++) != 0;
  r.created_utc = q.text(c++);
  r.command = q.text(c++);
  r.complete = q.integer(c++) != 0;
  r.argv_json = q.text(c++);
  r.config_path = q.text(c++);
  r.config_name = q.text(c++);
  r.config_hash = q.text(c++);
  r.tags_json = q.text(c++);
  r.host = q.text(c++);
  r.device_name = q.text(c++);
  r.device_fingerprint = q.text(c++);
  r.copy_bandwidth_gbps = q.real(c++);
  r.sm_clock_mhz_min = q.real(c++);
  r.sm_clock_mhz_max = q.real(c++);
  r.mem_clock_mhz = static_cast<int>(q.integer(c++));
  r.device_uuid = q.text(c++);
  r.timing_json = q.text(c++);
  r.cases = static_cast<int>(q.integer(c++));
  r.passed = static_cast<int>(q.integer(c++));
  r.failed = static_cast<int>(q.integer(c++));
  return r;
}

HistoryCase read_case(const SqliteStatement& q) {
  HistoryCase h;
  int c = 0;
  h.run_id = q.integer(c++);
  h.case_id = q.text(c++);
  h.mode = q.text(c++);
  h.disposition = q.text(c++);
  h.mismatches = q.integer(c++);
  h.first_mismatch = q.text(c++);
  h.detail = q.text(c++);
  h.fused_n = static_cast<int>(q.integer(c++));
  h.fused_median_us = q.real(c++);
  h.fused_q1_us = q.real(c++);
  h.fused_q3_us = q.real(c++);
  h.pair_n = static_cast<int>(q.integer(c++));
  h.pair_median_us = q.real(c++);
  h.pair_q1_us = q.real(c++);
  h.pair_q3_us = q.real(c++);
  h.speedup = q.real(c++);
  h.speedup_lo = q.real(c++);
  h.speedup_hi = q.real(c++);
  h.min_bytes = q.integer(c++);
  h.floor_us = q.real(c++);
  h.fused_gbps = q.real(c++);
  h.fused_pct_of_bandwidth = q.real(c++);
  h.repro = q.text(c++);
  h.tokens = q.integer(c++);
  h.fused_min_us = q.real(c++);
  h.fused_pass_medians_us = numbers_from_json(q.text(c++));
  h.pair_min_us = q.real(c++);
  h.pair_pass_medians_us = numbers_from_json(q.text(c++));
  return h;
}

}  // namespace

std::string HistoryRun::order_time() const {
  return git_commit_time_utc.empty() ? created_utc : git_commit_time_utc;
}

std::string report_file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw HistoryError("report '" + path + "': cannot be read as JSON");
  return fnv1a64_text(j.dump());
}

HistoryStore HistoryStore::open_for_writing(const std::string& path) {
  HistoryStore s(std::make_unique<SqliteConnection>(path, true));
  s.check_format(true);
  return s;
}

HistoryStore HistoryStore::open_for_reading(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw HistoryError("history database '" + path +
                       "': no such file (create it with `history add`)");
  HistoryStore s(std::make_unique<SqliteConnection>(path, false));
  s.check_format(false);
  return s;
}

// What the file is decides everything else: ours (check its version, upgrade an older one),
// empty (initialize when writing), or anything else (refuse in one line, touching nothing: a
// foreign file is not even switched to WAL).
void HistoryStore::check_format(bool may_initialize) {
  const std::string where = "history database '" + db_->path() + "': ";
  // The header and the schema read in one snapshot: another process may be creating the tables.
  const auto identify = [&] {
    db_->exec("BEGIN");
    const auto seen = header_and_objects(*db_);
    db_->exec("COMMIT");
    return seen;
  };
  const auto refuse_foreign = [&](std::int64_t app, std::int64_t objects) {
    throw HistoryError(where + "an SQLite database of something else (application_id " +
                       std::to_string(app) + ", " + std::to_string(objects) +
                       " schema objects), not a rope-kv-bench history");
  };
  auto [app, objects] = identify();
  if (app != kHistoryApplicationId) {
    if (app != 0 || objects != 0) refuse_foreign(app, objects);
    if (!may_initialize) throw HistoryError(where + "empty, holds no history yet");
    // A new file. WAL first (it cannot change inside a transaction); concurrent creators then
    // race for the write lock and the losers find the tables made.
    db_->ensure_wal();
    SqliteTransaction t(*db_);
    std::tie(app, objects) = header_and_objects(*db_);  // again, now holding the write lock
    if (app == 0 && objects == 0)
      create_history_tables(*db_);
    else if (app != kHistoryApplicationId)
      refuse_foreign(app, objects);
    t.commit();
    // On to the format check: a concurrent creator of another build may have made the tables.
  }
  const std::int64_t version = pragma_int(*db_, "user_version");
  if (version > kHistoryFormatVersion)
    throw HistoryError(where + "history format " + std::to_string(version) +
                       " is newer than this rope-kv-bench reads (" +
                       std::to_string(kHistoryFormatVersion) + ")");
  if (version < kOldestHistoryFormat)
    throw HistoryError(where + "history format " + std::to_string(version) +
                       " is not one this rope-kv-bench knows (" +
                       std::to_string(kOldestHistoryFormat) + " to " +
                       std::to_string(kHistoryFormatVersion) + ")");
  if (version < kHistoryFormatVersion) upgrade_history(*db_);
  if (may_initialize) db_->ensure_wal();  // a history re-imported from a dump
}

AddOutcome HistoryStore::add(const Report& report, const std::string& source,
                             const std::string& content_hash) {
  AddOutcome out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const CaseResult& c : report.cases)
    if (!seen.emplace(c.id, c.mode).second)
      throw HistoryError(
          "case '" + c.id + "' in mode '" + c.mode +
          "' appears twice in the report; a history keeps one row per case and mode");
  const std::string& hash = content_hash;
  SqliteTransaction t(*db_);
  {
    SqliteStatement find(*db_, "SELECT run_id FROM runs WHERE report_hash = ?1");
    find.bind(1, hash);
    if (find.step()) {
      out.run_id = find.integer(0);
      return out;  // already there: nothing changes (the transaction rolls back, empty)
    }
  }
  SqliteStatement run(*db_, std::string("INSERT INTO runs (") + kRunColumns + ") VALUES (NULL, " +
                                parameters(25) + ")");
  const RunMetadata& m = report.run;
  run.bind(1, hash)
      .bind(2, source)
      .bind(3, std::int64_t{report.schema_version})
      .bind(4, report.tool_version)
      .bind(5, report.git_revision)
      .bind(6, m.git_commit_time_utc)
      .bind(7, m.git_branch)
      .bind(8, std::int64_t{m.git_dirty})
      .bind(9, report.created_utc)
      .bind(10, report.command)
      .bind(11, std::int64_t{report.complete})
      .bind(12, nlohmann::json(report.argv).dump())
      .bind(13, m.config_path)
      .bind(14, m.config_name)
      .bind(15, m.config_hash)
      .bind(16, nlohmann::json(m.tags).dump())
      .bind(17, m.host)
      .bind(18, report.device.name)
      .bind(19, report.device.fingerprint())
      .bind(20, report.device.copy_bandwidth_gbps)
      .bind(21, m.sm_clock_seen.min_mhz)
      .bind(22, m.sm_clock_seen.max_mhz)
      .bind(23, std::int64_t{m.mem_clock_mhz})
      .bind(24, report.device.uuid)
      .bind(25, nlohmann::json(report.timing).dump());
  run.step();
  out.run_id = sqlite3_last_insert_rowid(db_->get());

  SqliteStatement insert(*db_, std::string("INSERT INTO cases (") + kCaseColumns + ") VALUES (" +
                                   parameters(28) + ")");
  for (const CaseResult& c : report.cases) {
    const VariantResult* fused = c.find_variant(Variant::fused);
    const VariantResult* pair = c.find_variant(Variant::pair);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto stat = [&](const VariantResult* v, double Summary::*field) {
      return v && v->us.n > 0 ? v->us.*field : nan;
    };
    insert.reset();
    insert.bind(1, out.run_id)
        .bind(2, c.id)
        .bind(3, c.mode)
        .bind(4, to_string(c.validation))
        .bind(5, c.mismatches)
        .bind(6, c.first_mismatch)
        .bind(7, c.detail)
        .bind(8, std::int64_t{fused ? fused->us.n : 0})
        .bind(9, stat(fused, &Summary::median))
        .bind(10, stat(fused, &Summary::q1))
        .bind(11, stat(fused, &Summary::q3))
        .bind(12, std::int64_t{pair ? pair->us.n : 0})
        .bind(13, stat(pair, &Summary::median))
        .bind(14, stat(pair, &Summary::q1))
        .bind(15, stat(pair, &Summary::q3))
        .bind(16, c.speedup ? c.speedup->median : nan)
        .bind(17, c.speedup ? c.speedup->lo : nan)
        .bind(18, c.speedup ? c.speedup->hi : nan)
        .bind(19, c.min_bytes)
        .bind(20, c.floor_us)
        // The runner leaves these 0 for a case it did not time: not computed, so NULL here.
        .bind(21, fused && fused->us.n > 0 ? c.fused_gbps : nan)
        .bind(22, fused && fused->us.n > 0 ? c.fused_pct_of_bandwidth : nan)
        .bind(23, c.repro)
        .bind(24, c.spec.tokens)
        .bind(25, stat(fused, &Summary::min))
        .bind(26, numbers_to_json(pass_medians(fused)))
        .bind(27, stat(pair, &Summary::min))
        .bind(28, numbers_to_json(pass_medians(pair)));
    insert.step();
  }
  t.commit();
  out.added = true;
  out.cases = static_cast<int>(report.cases.size());
  return out;
}

std::vector<HistoryRun> HistoryStore::runs() const {
  // Counts come from the cases; a run with no case row still shows (LEFT JOIN).
  SqliteStatement q(*db_, "SELECT " + qualified("r.", kRunColumns) +
                              ", count(c.case_id), "
                              "coalesce(sum(c.disposition = 'passed'), 0), "
                              "coalesce(sum(c.disposition IN ('incorrect', 'failed')), 0) "
                              "FROM runs r LEFT JOIN cases c ON c.run_id = r.run_id "
                              "GROUP BY r.run_id ORDER BY " +
                              kRunOrder);
  std::vector<HistoryRun> out;
  while (q.step())
    out.push_back(read_run(q));
  return out;
}

std::vector<HistoryCase> HistoryStore::cases(const std::string& case_id,
                                             const std::optional<std::string>& mode) const {
  SqliteStatement q(*db_, "SELECT " + qualified("c.", kCaseColumns) +
                              " FROM cases c JOIN runs r ON r.run_id = c.run_id "
                              "WHERE (?1 = '' OR c.case_id = ?1) AND (?2 IS NULL OR c.mode = ?2) "
                              "ORDER BY " +
                              kRunOrder + ", c.case_id, c.mode");
  q.bind(1, case_id);
  if (mode)
    q.bind(2, *mode);
  else
    q.bind_null(2);
  std::vector<HistoryCase> out;
  while (q.step())
    out.push_back(read_case(q));
  return out;
}

}  // namespace rkv
