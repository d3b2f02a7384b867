// The fused kernel's launch for a case's arguments, as the report records it (CaseResult::
// fused_launch): rope_kv_fused_launch's answer on the current GPU.
#pragma once

#include <optional>

#include "report/report.h"
#include "rope_kv.h"

namespace rkv {

// Nothing when the runtime cannot say (no GPU, a refused or too large launch) or the call has no
// work: the report then leaves the key out.
std::optional<FusedLaunchRecord> fused_launch_record(const RopeKvArgs& args);

}  // namespace rkv
