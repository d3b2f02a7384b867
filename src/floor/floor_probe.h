// The measurement behind `rope-kv-bench floor`: each copy pattern timed cold, as `bench --mode
// cold` times a case (L2 emptied by a read pass before every sample), with every copy kernel that
// can make the copy, so the probe's GB/s (the fastest kernel's) can be set beside a case's
// fused_gbps. No printing here: floor_command.cpp reports.
#pragma once

#include <cstdint>
#include <vector>

#include "floor/floor_request.h"
#include "floor/strided_copy.h"

namespace rkv {

struct CopyTiming {
  CopyKernel kernel = CopyKernel::tile4;
  std::vector<double> runs_us;  // every timed pass, in the order taken
  double median_us = 0;
  double gbps = 0;  // the pattern's bytes_moved / median
};

struct PatternTiming {
  CopyPattern pattern;
  std::int64_t rows = 0;
  std::int64_t bytes_moved = 0;  // read + written by one pass
  // One a kernel that applies, in all_copy_kernels() order; never empty, since tile4 applies to
  // every copy.
  std::vector<CopyTiming> copies;
  // The fastest copy (lowest median): the pattern's rate.
  const CopyTiming& best() const;
};

// The number of samples each copy kernel gets on each pattern after its warm-up passes.
inline constexpr int kFloorProbeRuns = 15;

// Times every pattern of `request` on the current device; `l2_bytes` sizes the flush. Throws
// CudaError (out of memory included) with one line.
std::vector<PatternTiming> time_copy_patterns(const FloorRequest& request, std::int64_t l2_bytes);

}  // namespace rkv
