// The value constraints of docs/report-schema.json that typed reading alone does not enforce:
// minimums of counts and sizes, the enums of fields kept as strings (command, mode, variant),
// the `tool` constant and the `fingerprint` type. from_json(Report) calls it after reading, so
// every report `report`, `compare` and `history` accept is one the schema accepts
// (tests/schema_cross_check.py plants each schema violation and expects both to refuse it).
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace rkv {

struct Report;

// Throws ReportFormatError naming the key path and the value, e.g.
// "cases[2].spec.tokens: 0 is below the minimum 1".
void check_report_constraints(const nlohmann::json& j, const Report& r);

}  // namespace rkv
