// The commands over the run history: `history add|list|show|export` and `dashboard`. Their flags
// are declared here and hooked into the CLI11 app by parse_cli; what they run is here too.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rkv {

struct HistoryRequest {
  std::string action;                // add, list, show, export; "" for dashboard
  std::vector<std::string> reports;  // add
  std::string db;                    // --db, default kDefaultHistoryDb
  std::string case_id;               // show --case
  std::optional<std::string> mode;   // show --mode
  std::string out_dir;               // dashboard --out
};

// CLI11 writes into these while parsing; they live as long as the app.
struct HistoryFlags {
  CLI::App *history = nullptr, *add = nullptr, *list = nullptr, *show = nullptr, *export_ = nullptr,
           *dashboard = nullptr;
  std::vector<std::string> reports;
  std::string db_add, db_list, db_show, db_export, db_dashboard;
  std::string case_id, mode, out_dir;
  bool json = false;
};

void add_history_commands(CLI::App& app, HistoryFlags* f);

// The request when `history` or `dashboard` was chosen; nullopt otherwise. Throws
// UsageError (usage_fail) with one line for a bad value.
std::optional<HistoryRequest> history_request(const HistoryFlags& f);

int run_history(const HistoryRequest& r);    // prints to stdout; exit 0
int run_dashboard(const HistoryRequest& r);  // writes r.out_dir; exit 0

}  // namespace rkv
