// The comparison as JSON (`compare --json FILE`), for CI steps and dashboards: the overall exit
// code, both runs, the rule and its parameters, and per case its verdict with each gated
// quantity's change (delta_pct), threshold (threshold_pct) and evidence. docs/ci.md lists the keys.
#pragma once

#include <string>

#include "gate/compare.h"

namespace rkv {

std::string verdict_json(const CompareOutcome& outcome);  // pretty, newline-terminated

}  // namespace rkv
