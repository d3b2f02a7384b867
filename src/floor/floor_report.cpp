#include "floor/floor_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace rkv {
namespace {

using nlohmann::json;

double percent_of_copy(const FloorReport& r, double gbps) {
  return r.device.copy_bandwidth_gbps > 0 ? 100.0 * gbps / r.device.copy_bandwidth_gbps : 0.0;
}

}  // namespace

std::string floor_report_json(const FloorReport& r) {
  json patterns = json::array();
  for (const PatternTiming& t : r.patterns)
    patterns.push_back({{"pattern", t.pattern.text()},
                        {"span_bytes", t.pattern.span_bytes},
                        {"row_bytes", t.pattern.row_bytes},
                        {"rows", t.rows},
                        {"bytes_moved", t.bytes_moved},
                        {"runs_us", t.runs_us},
                        {"median_us", t.median_us},
                        {"gbps", t.gbps},
                        {"pct_of_copy_bandwidth", percent_of_copy(r, t.gbps)}});
  const json j{{"schema_version", kFloorSchemaVersion},
               {"tool", "rope-kv-bench"},
               {"tool_version", r.tool_version},
               {"git_revision", r.git_revision},
               {"created_utc", r.created_utc},
               {"argv", r.argv},
               {"command", "floor"},
               {"device", r.device},
               {"run", r.run},
               {"timing", {{"mode", "cold"}, {"runs", kFloorProbeRuns}, {"statistic", "median"}}},
               {"moved_mib", r.request.moved_mib},
               {"in_place", r.request.in_place},
               {"patterns", patterns}};
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string floor_table_text(const FloorReport& r) {
  std::string out = fmt::format(
      "{} ({} SMs): contiguous copy {:.0f} GB/s; {} MiB each way{}, cold, median of {}\n",
      r.device.name, r.device.sm_count, r.device.copy_bandwidth_gbps, r.request.moved_mib,
      r.request.in_place ? " in place" : "", kFloorProbeRuns);
  out += fmt::format("{:>14} {:>12} {:>12} {:>10} {:>8}\n", "pattern", "rows", "median_us", "GB/s",
                     "% copy");
  for (const PatternTiming& t : r.patterns)
    out += fmt::format("{:>14} {:>12} {:>12.1f} {:>10.0f} {:>8.1f}\n", t.pattern.text(), t.rows,
                       t.median_us, t.gbps, percent_of_copy(r, t.gbps));
  return out;
}

}  // namespace rkv
