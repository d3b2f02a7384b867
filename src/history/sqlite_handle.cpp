#include "history/sqlite_handle.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace rkv {

// How long a writer waits for another's lock: SQLite's busy timeout, and the WAL switch's retries.
constexpr int kLockWaitSeconds = 60;

SqliteConnection::SqliteConnection(const std::string& path, bool create) : path_(path) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw HistoryError("history database '" + path + "': cannot open: " + why);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Concurrent `history add` processes queue for the write lock instead of failing at once.
  sqlite3_busy_timeout(db_, kLockWaitSeconds * 1000);
}

SqliteConnection::~SqliteConnection() {
  sqlite3_close(db_);
}

void SqliteConnection::fail(const std::string& doing) const {
  const int code = sqlite3_errcode(db_);
  std::string why = sqlite3_errmsg(db_);
  if ((code & 0xff) == SQLITE_NOTADB || (code & 0xff) == SQLITE_CORRUPT)
    why += " (the file is damaged or is not an SQLite database)";
  throw HistoryError("history database '" + path_ + "': " + doing + ": " + why);
}

void SqliteConnection::exec(const std::string& sql) {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
    fail("'" + sql.substr(0, sql.find_first_of("(\n")) + "'");
}

std::int64_t pragma_int(const SqliteConnection& db, const std::string& pragma) {
  SqliteStatement q(db, "PRAGMA " + pragma);
  return q.step() ? q.integer(0) : 0;
}

void SqliteConnection::ensure_wal() {
  const auto mode = [&] {
    SqliteStatement q(*this, "PRAGMA journal_mode");
    return q.step() ? q.text(0) : std::string();
  };
  const auto give_up_at = std::chrono::steady_clock::now() + std::chrono::seconds(kLockWaitSeconds);
  for (;;) {
    const std::string now = mode();
    if (now == "wal") return;
    const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    // Refused for a lock either as SQLITE_BUSY or by leaving the old mode in place.
    if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
      fail("'PRAGMA journal_mode=WAL'");
    if (rc == SQLITE_OK && mode() == "wal") return;
    if (std::chrono::steady_clock::now() > give_up_at) {
      const std::string waited = std::to_string(kLockWaitSeconds) + " s";
      if (rc != SQLITE_OK) fail("'PRAGMA journal_mode=WAL' (" + waited + " of retries)");
      throw HistoryError("history database '" + path_ + "': stays in journal mode '" + now +
                         "' after " + waited + " of asking for WAL");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

SqliteTransaction::SqliteTransaction(SqliteConnection& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
}

void SqliteTransaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

SqliteTransaction::~SqliteTransaction() {
  if (open_) sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

SqliteStatement::SqliteStatement(const SqliteConnection& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
    db.fail("preparing a query");
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(stmt_);
}

SqliteStatement& SqliteStatement::bind(int i, const std::string& v) {
  if (sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) !=
      SQLITE_OK)
    db_.fail("binding a value");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int i, std::int64_t v) {
  if (sqlite3_bind_int64(stmt_, i, v) != SQLITE_OK) db_.fail("binding a value");
  return *this;
}

SqliteStatement& SqliteStatement::bind(int i, double v) {
  if (!std::isfinite(v)) return bind_null(i);  // as in the report: not computed = null
  if (sqlite3_bind_double(stmt_, i, v) != SQLITE_OK) db_.fail("binding a value");
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int i) {
  if (sqlite3_bind_null(stmt_, i) != SQLITE_OK) db_.fail("binding a value");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("running a query");
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string SqliteStatement::text(int col) const {
  const unsigned char* t = sqlite3_column_text(stmt_, col);
  return t ? std::string(reinterpret_cast<const char*>(t),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
           : std::string();
}

std::int64_t SqliteStatement::integer(int col) const {
  return sqlite3_column_int64(stmt_, col);
}

double SqliteStatement::real(int col) const {
  if (is_null(col)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(stmt_, col);
}

bool SqliteStatement::is_null(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

}  // namespace rkv
