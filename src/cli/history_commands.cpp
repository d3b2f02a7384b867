#include "cli/history_commands.h"

#include <stdexcept>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/flag_values.h"
#include "dashboard/dashboard.h"
#include "history/history_store.h"
#include "history/history_text.h"
#include "history/trend.h"
#include "plan/sweep_axes.h"
#include "plan/timing_options.h"
#include "text/lists.h"

namespace rkv {
namespace {

void add_db_option(CLI::App* sub, std::string* db) {
  sub->add_option("--db", *db,
                  std::string("the history database file [default ") + kDefaultHistoryDb + "]")
      ->type_name("FILE");
}

std::string db_or_default(const std::string& db, const CLI::App* sub) {
  if (sub->get_option("--db")->count() == 0) return kDefaultHistoryDb;
  if (db.empty()) usage_fail("--db: an empty path");
  return db;
}

}  // namespace

void add_history_commands(CLI::App& app, HistoryFlags* f) {
  f->history = app.add_subcommand(
      "history", "the run history in SQLite: add reports, list runs, show a case's trend, export");
  f->history->require_subcommand(1);
  f->add = f->history->add_subcommand(
      "add", "add bench/validate reports (adding one twice changes nothing)");
  f->add->add_option("reports", f->reports, "report JSON files")->type_name("REPORT")->required();
  add_db_option(f->add, &f->db_add);
  f->list = f->history->add_subcommand("list", "list the runs, oldest revision first");
  add_db_option(f->list, &f->db_list);
  f->show = f->history->add_subcommand("show", "one case's trend over the runs, as a table");
  f->show->add_option("--case", f->case_id, "the case id")->type_name("ID")->required();
  f->show->add_option("--mode", f->mode, "only this timing mode")->type_name("MODE");
  add_db_option(f->show, &f->db_show);
  f->export_ = f->history->add_subcommand("export", "print the whole history");
  f->export_->add_flag("--json", f->json, "as JSON (the only format)")->required();
  add_db_option(f->export_, &f->db_export);

  f->dashboard = app.add_subcommand(
      "dashboard", "write a static HTML dashboard of the history (works from file://)");
  add_db_option(f->dashboard, &f->db_dashboard);
  f->dashboard->add_option("--out", f->out_dir, "the folder to write index.html into")
      ->type_name("DIR")
      ->required();
}

std::optional<HistoryRequest> history_request(const HistoryFlags& f) {
  HistoryRequest r;
  if (f.dashboard->parsed()) {
    r.db = db_or_default(f.db_dashboard, f.dashboard);
    if (f.out_dir.empty()) usage_fail("--out: an empty path");
    r.out_dir = f.out_dir;
    return r;
  }
  if (!f.history->parsed()) return std::nullopt;
  if (f.add->parsed()) {
    r.action = "add";
    r.db = db_or_default(f.db_add, f.add);
    r.reports = f.reports;
  } else if (f.list->parsed()) {
    r.action = "list";
    r.db = db_or_default(f.db_list, f.list);
  } else if (f.show->parsed()) {
    r.action = "show";
    r.db = db_or_default(f.db_show, f.show);
    if (f.case_id.empty()) usage_fail("--case: an empty case id");
    r.case_id = f.case_id;
    if (f.show->get_option("--mode")->count()) {
      if (!parse_timing_mode(f.mode))
        usage_fail("--mode: '" + f.mode + "' is not a timing mode (one of " +
                   join(timing_mode_names()) + ")");
      r.mode = f.mode;
    }
  } else {
    r.action = "export";
    r.db = db_or_default(f.db_export, f.export_);
  }
  return r;
}

int run_history(const HistoryRequest& r) {
  if (r.action == "add") {
    // Every report is read (and so checked) before the database is touched.
    std::vector<Report> reports;
    for (const std::string& path : r.reports)
      reports.push_back(read_report(path));
    HistoryStore store = HistoryStore::open_for_writing(r.db);
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const AddOutcome out = store.add(reports[i], r.reports[i], report_file_hash(r.reports[i]));
      if (out.added)
        fmt::print("added {} as run {} ({} cases)\n", r.reports[i], out.run_id, out.cases);
      else
        fmt::print("{} is already in the history as run {}: nothing changed\n", r.reports[i],
                   out.run_id);
    }
    return 0;
  }
  const HistoryStore store = HistoryStore::open_for_reading(r.db);
  const std::vector<HistoryRun> runs = store.runs();
  if (r.action == "list") {
    fmt::print("{}", render_history_runs(runs));
  } else if (r.action == "show") {
    const std::vector<Trend> trends =
        build_trends(runs, store.cases(r.case_id, r.mode), /*include_untimed=*/true);
    if (trends.empty())
      throw std::runtime_error("--case '" + r.case_id + "'" +
                               (r.mode ? " --mode " + *r.mode : std::string()) +
                               ": not in the history '" + r.db + "'");
    fmt::print("{}", render_trend_tables(trends));
  } else {
    fmt::print("{}\n", history_to_json(runs, store.cases()).dump(2));
  }
  return 0;
}

int run_dashboard(const HistoryRequest& r) {
  const HistoryStore store = HistoryStore::open_for_reading(r.db);
  const std::vector<HistoryRun> runs = store.runs();
  const std::string index = write_dashboard(runs, store.cases(), r.out_dir);
  fmt::print(stderr, "wrote {}\n", index);
  return 0;
}

}  // namespace rkv
