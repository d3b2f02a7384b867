// `rope-kv-bench merge`: shard reports (bench --shard K/N) back into one report of the whole
// sweep. Only reports of one run belong together: the same tool version and revision, command,
// device (fingerprint), timing settings and config (hash), and the same shard count. Each case
// (id and mode) may appear once; shards may each appear once; a shard of the N that is missing
// is refused unless allowed (the merged report then says complete: false).
//
// The merged report keeps each case row as its shard wrote it, speedup interval included (each
// shard's intervals were set within that shard's run), in the sweep's planned order: shard K's
// i-th case was the planned case (K-1) + i*N. The device block is the first shard's, with every
// shard's launch-floor measurements pooled (launch_floor_us the lowest); a case's floor_us and %
// of bandwidth use the copy bandwidth its own shard measured. run.shard lists the merged shards.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "report/report.h"

namespace rkv {

// Why the inputs do not merge, one line naming the input (by its position and path).
struct ReportMergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MergeInput {
  std::string path;  // names the input in messages
  Report report;
};

// Throws ReportMergeError. `allow_partial`: missing shards are allowed (complete: false).
Report merge_reports(const std::vector<MergeInput>& inputs, bool allow_partial);

}  // namespace rkv
