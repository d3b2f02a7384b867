// A case spec as JSON: the keys of a report's cases[].spec, also written into every dump's
// meta.json, so the two can never disagree. (Reading it back is the report reader's job.)
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "plan/case_spec.h"

namespace rkv {

void to_json(nlohmann::json& j, const CaseSpec& s);

}  // namespace rkv
