#include "floor/floor_report.h"

#include <algorithm>

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
  for (const PatternTiming& t : r.patterns) {
    json copies = json::array();
    for (const CopyTiming& c : t.copies)
      copies.push_back({{"copy", copy_kernel_name(c.kernel)},
                        {"runs_us", c.runs_us},
                        {"median_us", c.median_us},
                        {"gbps", c.gbps},
                        {"pct_of_copy_bandwidth", percent_of_copy(r, c.gbps)}});
    const CopyTiming& best = t.best();
    patterns.push_back({{"pattern", t.pattern.text()},
                        {"span_bytes", t.pattern.span_bytes},
                        {"row_bytes", t.pattern.row_bytes},
                        {"rows", t.rows},
                        {"bytes_moved", t.bytes_moved},
                        {"copy", copy_kernel_name(best.kernel)},
                        {"runs_us", best.runs_us},
                        {"median_us", best.median_us},
                        {"gbps", best.gbps},
                        {"pct_of_copy_bandwidth", percent_of_copy(r, best.gbps)},
                        {"copies", copies}});
  }
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
      "{} ({} SMs): contiguous copy {:.0f} GB/s; {} MiB each way{}, cold, median of {}; the "
      "fastest "
      "copy kernel a pattern, then each kernel's % copy\n",
      r.device.name, r.device.sm_count, r.device.copy_bandwidth_gbps, r.request.moved_mib,
      r.request.in_place ? " in place" : "", kFloorProbeRuns);
  const std::vector<CopyKernel> kernels = all_copy_kernels();
  out += fmt::format("{:>14} {:>12} {:>12} {:>10} {:>8} {:>12}", "pattern", "rows", "median_us",
                     "GB/s", "% copy", "copy");
  for (CopyKernel k : kernels)
    out += fmt::format(" {:>11}", copy_kernel_name(k));
  out += "\n";
  for (const PatternTiming& t : r.patterns) {
    const CopyTiming& best = t.best();
    out += fmt::format("{:>14} {:>12} {:>12.1f} {:>10.0f} {:>8.1f} {:>12}", t.pattern.text(),
                       t.rows, best.median_us, best.gbps, percent_of_copy(r, best.gbps),
                       copy_kernel_name(best.kernel));
    for (CopyKernel k : kernels) {
      const auto c = std::find_if(t.copies.begin(), t.copies.end(),
                                  [k](const CopyTiming& x) { return x.kernel == k; });
      out += c == t.copies.end() ? fmt::format(" {:>11}", "-")
                                 : fmt::format(" {:>11.1f}", percent_of_copy(r, c->gbps));
    }
    out += "\n";
  }
  return out;
}

}  // namespace rkv
