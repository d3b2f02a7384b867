// The value constraints of docs/report-schema.json that typed reading alone does not enforce:
// the report-level minimums (device counts, timing.passes), the enums of command and variant,
// the `tool` constant and the `fingerprint` type. The per-case minimums and the mode enum are
// checked as each case is read (report_checks.h), once. from_json(Report) calls it after reading,
// so every report `report`, `compare` and `history` accept is one the schema accepts
// (tests/schema_cross_check.py plants each schema violation and expects both to refuse it).
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace rkv {

struct Report;

// Throws ReportFormatError naming the key path and the value, e.g.
// "device.sm_count: -1 is below the minimum 0".
void check_report_constraints(const nlohmann::json& j, const Report& r);

}  // namespace rkv
