// What `rope-kv-bench floor` is asked to time, and the limits on it checked before the GPU is
// touched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floor/copy_pattern.h"

namespace rkv {

struct FloorRequest {
  std::vector<CopyPattern> patterns = default_copy_patterns();
  std::int64_t moved_mib = 256;  // bytes read by one pass (= bytes written), in MiB
  bool in_place = false;         // read and write the same spans (as an in-place rotation does)
};

inline constexpr std::int64_t kMaxMovedMib = 16384;
// A pattern's rows span rows * ROW bytes, allocated twice (source and destination): 32 GiB of
// rows is past any use of the probe and within one H200's memory.
inline constexpr std::int64_t kMaxFootprintBytes = std::int64_t{32} << 30;

// Rows of `p` that move `moved_mib` MiB each way (rounded up to whole rows).
std::int64_t floor_probe_rows(const CopyPattern& p, std::int64_t moved_mib);

// Why `r` cannot run, one line naming the pattern ("16/65536 at --moved-mib 256 spans 1024.0 GiB
// of rows, more than the 32 GiB allowed"), or nullopt. Memory is the device's to refuse (out of
// memory, at allocation).
std::optional<std::string> floor_request_problem(const FloorRequest& r);

}  // namespace rkv
