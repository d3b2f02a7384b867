// The comparison as people read it: plain text on stdout (always) and Markdown for a pull-request
// comment. Both: the overall line, the two runs (revision, date, device), the warnings, then a
// table whose failing rows come first (regressions, missing, not passed; then the rest by
// severity), and the rule's parameters. Without `all_rows` only cases that did not simply pass
// are listed.
#pragma once

#include <string>

#include "gate/compare.h"
#include "report/tables.h"

namespace rkv {

std::string render_comparison(const CompareOutcome& outcome, TableFormat format,
                              bool all_rows = false);

// One line: how the rule decides, with its parameters (for headers and the JSON).
std::string describe_rule(const CompareOutcome& outcome);

// The cases in the order the renderers list them: failing first.
std::vector<const CaseComparison*> rows_in_order(const CompareOutcome& outcome);

}  // namespace rkv
