#include "floor/floor_command.h"

#include <fmt/format.h>

#include "device/cuda_check.h"
#include "device/device_info.h"
#include "floor/floor_probe.h"
#include "floor/floor_report.h"
#include "io/atomic_file.h"
#include "report/build_info.h"
#include "report/exit_codes.h"
#include "report/report.h"

namespace rkv {

int run_floor_command(const FloorRequest& request, const std::string& json_out,
                      const std::vector<std::string>& argv) {
  if (const std::string problem = cuda_device_problem(); !problem.empty()) {
    fmt::print(stderr, "rope-kv-bench: error: floor needs an NVIDIA GPU: {}\n", problem);
    return kExitUsage;
  }
  FloorReport r;
  r.tool_version = tool_version();
  r.git_revision = git_revision();
  r.created_utc = utc_now_iso8601();
  r.argv = argv;
  r.run = with_build_and_host(RunMetadata{});
  r.request = request;
  r.device = query_device_info();
  r.device.copy_bandwidth_gbps = measure_copy_bandwidth_gbps();
  r.patterns = time_copy_patterns(request, r.device.l2_bytes);
  fmt::print("{}", floor_table_text(r));
  if (!json_out.empty()) {
    write_file_atomically(json_out, floor_report_json(r), "floor report");
    fmt::print(stderr, "wrote {}\n", json_out);
  }
  return 0;
}

}  // namespace rkv
