// The history database's tables and how a file of an older history format becomes the current
// one. The tables are defined once, as format 1 created them, plus the columns each later format
// added: a new file is made by the same steps that upgrade an old one, so the two cannot differ.
// docs/history.md describes the tables and the formats.
#pragma once

#include <cstdint>

#include "history/sqlite_handle.h"

namespace rkv {

// The history format this build writes and reads (PRAGMA user_version). 2 added the fastest
// launch and the per-pass medians of each variant, the case's token count and the GPU's uuid:
// what `compare`'s rule reads, so the trends judge as `compare` does. 3 added each run's timing
// settings, so a trend point timed with settings `compare` refuses to compare gets no verdict.
inline constexpr int kHistoryFormatVersion = 3;
// The oldest format this build can upgrade.
inline constexpr int kOldestHistoryFormat = 1;
// 'RKVH' in the SQLite header's application_id: tells our files from other SQLite databases.
inline constexpr std::int64_t kHistoryApplicationId = 0x524b5648;

// The columns of each table in the order the store reads them (the order the table has them).
extern const char* const kRunColumns;
extern const char* const kCaseColumns;

// Makes the tables of the current format in an empty database and marks the file as a history of
// that format. The caller holds the write lock (SqliteTransaction).
void create_history_tables(SqliteConnection& db);

// Brings a history of format `kOldestHistoryFormat` or later up to kHistoryFormatVersion in
// place: the added columns are NULL in the rows already there. One transaction holding the write
// lock, so a failure leaves the file as it was; the format is read again under the lock, and a
// column already there is not added again, so two processes upgrading at once, or an upgrade run
// twice, end with the same file.
void upgrade_history(SqliteConnection& db);

}  // namespace rkv
