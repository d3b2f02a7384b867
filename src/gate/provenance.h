// Which run measured each case of a baseline. A refreshed baseline mixes runs: the cases a
// pull request re-measured come from it, the others keep their older numbers. So every case
// records the revision, date and tool version that measured it (`cases[i].measured_by` in the
// JSON; optional on read: a case without it was measured by the run the report names).
#pragma once

#include <string>
#include <vector>

#include "report/report.h"

namespace rkv {

struct CaseProvenance {
  std::string git_revision, created_utc, tool_version;
};

CaseProvenance provenance_of(const Report& r);

// One entry per case of `r` (read from `path`), in order: its `measured_by`, else the report's.
// Throws ReportFormatError naming the file and the key when `measured_by` is malformed.
std::vector<CaseProvenance> read_case_provenance(const std::string& path, const Report& r);

// The report's JSON with each case's `measured_by` added; newline-terminated.
std::string report_json_with_provenance(const Report& r,
                                        const std::vector<CaseProvenance>& measured_by);

}  // namespace rkv
