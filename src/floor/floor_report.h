// The output of `rope-kv-bench floor`: a JSON document of its own kind (command "floor"), with the
// same provenance as a bench report (tool version, git revision, device block with the contiguous
// copy bandwidth measured in the same process, run metadata) and one entry per pattern; and the
// table printed to stdout. docs/report.md describes the keys.
#pragma once

#include <string>
#include <vector>

#include "device/device_info_model.h"
#include "floor/floor_probe.h"
#include "report/run_metadata.h"

namespace rkv {

inline constexpr int kFloorSchemaVersion =
    2;  // 2: each pattern timed with every copy kernel ("copies")

struct FloorReport {
  std::string tool_version, git_revision, created_utc;
  std::vector<std::string> argv;
  DeviceInfo device;  // copy_bandwidth_gbps: the contiguous floor every bench report uses
  RunMetadata run;
  FloorRequest request;
  std::vector<PatternTiming> patterns;
};

// Pretty JSON, newline-terminated.
std::string floor_report_json(const FloorReport& r);

// One line a pattern: rows, the fastest copy's median, GB/s, percent of the contiguous copy and
// kernel, then every kernel's percent ("-" where it does not apply).
std::string floor_table_text(const FloorReport& r);

}  // namespace rkv
