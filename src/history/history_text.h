// What `history list`, `history show` and `history export --json` print, made from the store's
// rows and trends only (no database access here).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "history/history_store.h"
#include "history/trend.h"

namespace rkv {

// One row per run, in trend order: id, when, revision, branch, command, cases (passed / total),
// config, tags, device, host, source.
std::string render_history_runs(const std::vector<HistoryRun>& runs);

// Per trend, a table with one row per run: revision, when, fused and pair median us, speedup and
// its interval, % of bandwidth, validation, and the verdict against the previous row.
std::string render_trend_tables(const std::vector<Trend>& trends);

// The whole history as JSON: {"format": "rope-kv-bench history", "format_version": 2,
// "runs": [{run fields..., "cases": [...]}, ...]}; NaN as null.
nlohmann::json history_to_json(const std::vector<HistoryRun>& runs,
                               const std::vector<HistoryCase>& cases);

// Numbers as the history texts and the dashboard print them ("-" for NaN).
std::string format_us(double us);
std::string format_speedup(double x);
std::string format_percent(double pct);
std::string verdict_text(const TrendPoint& p);  // "regression", ..., "" for the first point

}  // namespace rkv
