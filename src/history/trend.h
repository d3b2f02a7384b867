// Trends: each case and timing mode across the runs of a history, in trend order, each point
// judged against the previous point of the same case by `compare`'s own rule (gate/compare.h,
// with compare's command-line defaults), so a regression on the dashboard is exactly what the
// CI gate would have called one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/compare.h"
#include "history/history_store.h"

namespace rkv {

struct TrendPoint {
  const HistoryRun* run = nullptr;
  HistoryCase result;
  // Against the previous point; absent for the first point, when the device changed between the
  // two runs (numbers from different GPUs are not compared), and when their timing settings
  // differ as `compare` refuses them (gate/preflight.h, timing_differences).
  std::optional<Verdict> verdict;
  std::string note;  // why, one line (compare's notes joined), or why there is no verdict
};

struct Trend {
  std::string case_id, mode;
  std::vector<TrendPoint> points;  // oldest first
  const TrendPoint& latest() const { return points.back(); }
};

// Every (case id, mode) of `cases` with at least one point, ordered by case id then mode; the
// validate-only rows (mode "") are left out unless `include_untimed`. `runs` must outlive the
// result (points refer to them).
std::vector<Trend> build_trends(const std::vector<HistoryRun>& runs,
                                const std::vector<HistoryCase>& cases,
                                bool include_untimed = false);

// "d774aede1019" from "d774aede1019-dirty", shortened to at most 12 characters.
std::string short_revision(const std::string& git_revision);

}  // namespace rkv
