// GitHub Actions workflow commands for a comparison: one `::error` line per case that fails the
// gate (and one for a refusal), one `::warning` per warning and per case worth a look (noted,
// unconfirmed, accepted). The runner turns them into annotations on the pull request.
#pragma once

#include <string>

#include "gate/compare.h"

namespace rkv {

std::string github_annotations(const CompareOutcome& outcome);

}  // namespace rkv
