// `rope-kv-bench floor`: how close a plain copy of an access shape comes to the contiguous copy
// bandwidth that reports measure their floor against. Checks the device, times the patterns
// (floor_probe.h), prints the table and writes the JSON (atomically) when asked.
#pragma once

#include <string>
#include <vector>

#include "floor/floor_request.h"

namespace rkv {

// Exit 0, or kExitUsage with one line on stderr when there is no GPU. CUDA failures (out of
// memory included) throw CudaError for main() to print as one line.
int run_floor_command(const FloorRequest& request, const std::string& json_out,
                      const std::vector<std::string>& argv);

}  // namespace rkv
