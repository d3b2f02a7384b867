// A thin RAII layer over the SQLite C API for the history store: a connection and prepared
// statements that bind and read by position. Every SQLite failure becomes a HistoryError whose
// one line names the database file and SQLite's own message.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace rkv {

struct HistoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SqliteConnection {
 public:
  // Opens `path` read-write; creates it only when `create`. Throws HistoryError.
  SqliteConnection(const std::string& path, bool create);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  void exec(const std::string& sql);  // statements without results
  // Puts the file in WAL mode (a property of the file: nothing to do once it is). The switch
  // needs the file to itself and SQLite does not call the busy handler for it, so a process that
  // meets another one's lock retries here, within the same 60 s as the busy timeout.
  void ensure_wal();
  sqlite3* get() const { return db_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& doing) const;  // HistoryError with sqlite's message

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// BEGIN IMMEDIATE (the write lock up front), rolled back unless committed: a failure half way
// leaves the database as it was.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteConnection& db);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SqliteConnection& db_;
  bool open_ = true;
};

class SqliteStatement {
 public:
  SqliteStatement(const SqliteConnection& db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Parameters are 1-based, as in SQL's ?1. A NaN double binds as NULL.
  SqliteStatement& bind(int i, const std::string& v);
  SqliteStatement& bind(int i, std::int64_t v);
  SqliteStatement& bind(int i, double v);
  SqliteStatement& bind_null(int i);

  bool step();  // true while a row is available; false when done. Throws on error.
  void reset();

  // Columns are 0-based. A NULL real reads as NaN, a NULL text as "".
  std::string text(int col) const;
  std::int64_t integer(int col) const;
  double real(int col) const;
  bool is_null(int col) const;

 private:
  const SqliteConnection& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// The value of a pragma that reads as one integer (user_version, application_id); 0 if none.
std::int64_t pragma_int(const SqliteConnection& db, const std::string& pragma);

}  // namespace rkv
