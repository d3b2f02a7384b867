// `rope-kv-bench dashboard`: a static site from the run history that works from file:// with no
// network. One self-contained index.html: the runs with their validation counts, per timing mode
// the latest speedup and % of bandwidth of every case, the regressions, and per case and mode a
// trend chart (trend_chart.h), its validation status and the command that reruns it.
//
// Every number a table shows carries its full value in data-value, so a test can check the page
// against the database; a window.onerror handler writes an element with id "js-error", so a
// headless browser's DOM tells whether any script failed.
#pragma once

#include <string>
#include <vector>

#include "history/history_store.h"

namespace rkv {

std::string render_dashboard_html(const std::vector<HistoryRun>& runs,
                                  const std::vector<HistoryCase>& cases);

// Writes `out_dir`/index.html (creating the folder; the file is written beside and renamed into
// place). Returns its path. Throws std::runtime_error with one line naming the path.
std::string write_dashboard(const std::vector<HistoryRun>& runs,
                            const std::vector<HistoryCase>& cases, const std::string& out_dir);

}  // namespace rkv
