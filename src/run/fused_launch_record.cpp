#include "run/fused_launch_record.h"

#include <string>

namespace rkv {

std::optional<FusedLaunchRecord> fused_launch_record(const RopeKvArgs& args) {
  RopeKvFusedLaunch launch;
  if (rope_kv_fused_launch(args, &launch) != cudaSuccess) {
    (void)cudaGetLastError();  // an occupancy query that failed leaves nothing sticky behind
    return std::nullopt;
  }
  if (launch.ctas <= 0) return std::nullopt;  // "none": nothing to launch
  return FusedLaunchRecord{std::string(launch.kernel), launch.role_major, launch.ctas,
                           launch.threads, launch.compact};
}

}  // namespace rkv
