#include "floor/floor_request.h"

#include <fmt/format.h>

namespace rkv {

std::int64_t floor_probe_rows(const CopyPattern& p, std::int64_t moved_mib) {
  const std::int64_t bytes = moved_mib << 20;
  return (bytes + p.span_bytes - 1) / p.span_bytes;
}

std::optional<std::string> floor_request_problem(const FloorRequest& r) {
  if (r.patterns.empty()) return std::string("no pattern to time");
  if (r.moved_mib < 1 || r.moved_mib > kMaxMovedMib)
    return fmt::format("--moved-mib {} is outside 1..{}", r.moved_mib, kMaxMovedMib);
  for (const CopyPattern& p : r.patterns) {
    const std::int64_t footprint = floor_probe_rows(p, r.moved_mib) * p.row_bytes;
    if (footprint > kMaxFootprintBytes)
      return fmt::format(
          "{} at --moved-mib {} spans {:.1f} GiB of rows, more than the {} GiB allowed", p.text(),
          r.moved_mib, static_cast<double>(footprint) / (1 << 30), kMaxFootprintBytes >> 30);
  }
  return std::nullopt;
}

}  // namespace rkv
