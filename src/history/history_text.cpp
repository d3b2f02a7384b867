#include "history/history_text.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/tables.h"

namespace rkv {
namespace {

using nlohmann::json;

json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

std::string tags_text(const std::string& tags_json) {
  std::string out;
  const json tags = json::parse(tags_json, nullptr, false);
  if (!tags.is_object()) return out;
  for (auto it = tags.begin(); it != tags.end(); ++it)
    out += (out.empty() ? "" : " ") + it.key() + "=" + it.value().get<std::string>();
  return out;
}

}  // namespace

std::string format_us(double us) {
  if (!std::isfinite(us)) return "-";
  return us >= 100 ? fmt::format("{:.1f}", us) : fmt::format("{:.2f}", us);
}

std::string format_speedup(double x) {
  return std::isfinite(x) ? fmt::format("{:.2f}x", x) : "-";
}

std::string format_percent(double pct) {
  return std::isfinite(pct) ? fmt::format("{:.0f}%", pct) : "-";
}

std::string verdict_text(const TrendPoint& p) {
  if (p.verdict) return to_string(*p.verdict);
  return p.note.empty() ? "" : "n/a";
}

std::string render_history_runs(const std::vector<HistoryRun>& runs) {
  std::vector<std::vector<std::string>> rows;
  for (const HistoryRun& r : runs)
    rows.push_back({std::to_string(r.run_id), r.order_time(),
                    short_revision(r.git_revision) + (r.git_dirty ? "-dirty" : ""), r.git_branch,
                    r.command + (r.complete ? "" : " (interrupted)"),
                    fmt::format("{}/{}", r.passed, r.cases),
                    r.config_name.empty() ? r.config_path : r.config_name, tags_text(r.tags_json),
                    r.device_name, r.host, r.source});
  return render_table({"run", "when", "revision", "branch", "command", "passed", "config", "tags",
                       "device", "host", "source"},
                      rows, 11, TableFormat::text) +
         fmt::format("{} runs\n", runs.size());
}

std::string render_trend_tables(const std::vector<Trend>& trends) {
  std::string out;
  for (const Trend& t : trends) {
    std::vector<std::vector<std::string>> rows;
    for (const TrendPoint& p : t.points) {
      const HistoryCase& c = p.result;
      rows.push_back(
          {std::to_string(p.run->run_id), short_revision(p.run->git_revision), p.run->order_time(),
           format_us(c.fused_median_us), format_us(c.pair_median_us), format_speedup(c.speedup),
           std::isfinite(c.speedup_lo) ? fmt::format("[{:.2f}, {:.2f}]", c.speedup_lo, c.speedup_hi)
                                       : "-",
           format_percent(c.fused_pct_of_bandwidth), c.disposition, verdict_text(p)});
    }
    out += fmt::format("{} (mode {})\n", t.case_id, t.mode.empty() ? "none" : t.mode);
    out += render_table({"run", "revision", "when", "fused us", "pair us", "speedup", "interval",
                         "% of bw", "validation", "vs previous"},
                        rows, {true, true, true, false, false, false, false, false, true, true},
                        TableFormat::text);
    const TrendPoint& last = t.latest();
    if (!last.note.empty()) out += "latest: " + last.note + "\n";
    out += "repro: " + last.result.repro + "\n\n";
  }
  return out;
}

json history_to_json(const std::vector<HistoryRun>& runs, const std::vector<HistoryCase>& cases) {
  json out = {{"format", "rope-kv-bench history"},
              {"format_version", kHistoryFormatVersion},
              {"runs", json::array()}};
  for (const HistoryRun& r : runs) {
    json run = {{"run_id", r.run_id},
                {"report_hash", r.report_hash},
                {"source", r.source},
                {"schema_version", r.schema_version},
                {"tool_version", r.tool_version},
                {"git_revision", r.git_revision},
                {"git_commit_time_utc", r.git_commit_time_utc},
                {"git_branch", r.git_branch},
                {"git_dirty", r.git_dirty},
                {"created_utc", r.created_utc},
                {"command", r.command},
                {"complete", r.complete},
                {"argv", json::parse(r.argv_json, nullptr, false)},
                {"config_path", r.config_path},
                {"config_name", r.config_name},
                {"config_hash", r.config_hash},
                {"tags", json::parse(r.tags_json, nullptr, false)},
                {"host", r.host},
                {"device_name", r.device_name},
                {"device_fingerprint", r.device_fingerprint},
                {"device_uuid", r.device_uuid},
                // The report's timing object; null for rows added before format 3.
                {"timing", r.timing_json.empty() ? json(nullptr)
                                                 : json::parse(r.timing_json, nullptr, false)},
                {"copy_bandwidth_gbps", number(r.copy_bandwidth_gbps)},
                {"sm_clock_mhz_min", number(r.sm_clock_mhz_min)},
                {"sm_clock_mhz_max", number(r.sm_clock_mhz_max)},
                {"mem_clock_mhz", r.mem_clock_mhz},
                {"cases", json::array()}};
    for (const HistoryCase& c : cases) {
      if (c.run_id != r.run_id) continue;
      run["cases"].push_back({{"id", c.case_id},
                              {"mode", c.mode},
                              {"disposition", c.disposition},
                              {"mismatches", c.mismatches},
                              {"first_mismatch", c.first_mismatch},
                              {"detail", c.detail},
                              {"fused_n", c.fused_n},
                              {"fused_median_us", number(c.fused_median_us)},
                              {"fused_q1_us", number(c.fused_q1_us)},
                              {"fused_q3_us", number(c.fused_q3_us)},
                              {"fused_min_us", number(c.fused_min_us)},
                              {"fused_pass_medians_us", c.fused_pass_medians_us},
                              {"pair_n", c.pair_n},
                              {"pair_median_us", number(c.pair_median_us)},
                              {"pair_q1_us", number(c.pair_q1_us)},
                              {"pair_q3_us", number(c.pair_q3_us)},
                              {"pair_min_us", number(c.pair_min_us)},
                              {"pair_pass_medians_us", c.pair_pass_medians_us},
                              {"speedup", number(c.speedup)},
                              {"speedup_lo", number(c.speedup_lo)},
                              {"speedup_hi", number(c.speedup_hi)},
                              {"min_bytes", c.min_bytes},
                              {"floor_us", number(c.floor_us)},
                              {"fused_gbps", number(c.fused_gbps)},
                              {"fused_pct_of_bandwidth", number(c.fused_pct_of_bandwidth)},
                              {"tokens", c.tokens},
                              {"repro", c.repro}});
    }
    out["runs"].push_back(std::move(run));
  }
  return out;
}

}  // namespace rkv
