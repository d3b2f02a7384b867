// `rope-kv-bench compare`: everything between the parsed flags and the exit code. Output paths
// are checked first, then the reports are read, compared (compare.h) and the outputs written:
// text on `out` always, --json, --markdown, --github (annotations on `out`, the Markdown appended
// to $GITHUB_STEP_SUMMARY when set), and the refreshed baseline only when the comparison passed.
#pragma once

#include <ostream>
#include <string>

#include "gate/compare.h"

namespace rkv {

struct CompareRequest {
  std::string baseline_path, current_path;
  std::string rerun_path;  // --rerun: the flagged cases timed once more; "" = none
  CompareOptions options;
  std::string json_out, markdown_out, refreshed_baseline_out;  // "" = not written
  bool all_rows = false;                                       // --all: list passing cases too
  bool github = false;                                         // --github
};

// Returns the exit code (compare.h). Throws std::runtime_error (or ReportFormatError) with one
// line for a bad output path or an unreadable report: main() turns it into exit 4.
int run_compare_command(const CompareRequest& request, std::ostream& out);

}  // namespace rkv
