#include "gate/compare_command.h"

#include <cstdlib>
#include <stdexcept>

#include "gate/compare_render.h"
#include "gate/github_output.h"
#include "gate/output_files.h"
#include "gate/provenance.h"
#include "gate/refreshed_baseline.h"
#include "gate/verdict_json.h"

namespace rkv {
namespace {

std::string step_summary_path(bool github) {
  const char* p = github ? std::getenv("GITHUB_STEP_SUMMARY") : nullptr;
  return p && *p ? p : "";
}

void check_outputs(const CompareRequest& r) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--json", &r.json_out},
      {"--markdown", &r.markdown_out},
      {"--refreshed-baseline", &r.refreshed_baseline_out}};
  for (const auto& [flag, path] : outputs) {
    if (path->empty()) continue;
    for (const std::string* input : {&r.baseline_path, &r.current_path, &r.rerun_path})
      if (*path == *input)
        throw std::runtime_error(std::string(flag) + " '" + *path +
                                 "': is one of the input reports");
    check_output_path(flag, *path);
  }
  const std::string summary = step_summary_path(r.github);
  if (!summary.empty()) check_output_path("GITHUB_STEP_SUMMARY", summary);
}

}  // namespace

int run_compare_command(const CompareRequest& r, std::ostream& out) {
  check_outputs(r);
  const Report baseline = read_report(r.baseline_path);
  const Report current = read_report(r.current_path);
  std::optional<Report> rerun;
  if (!r.rerun_path.empty()) rerun = read_report(r.rerun_path);
  const std::vector<CaseProvenance> baseline_measured_by =
      read_case_provenance(r.baseline_path, baseline);

  const CompareOutcome o = compare_reports(baseline, current, r.options, rerun ? &*rerun : nullptr);
  out << render_comparison(o, TableFormat::text, r.all_rows);
  const std::string markdown = render_comparison(o, TableFormat::markdown, r.all_rows);
  if (!r.json_out.empty()) write_text_atomically(r.json_out, verdict_json(o));
  if (!r.markdown_out.empty()) write_text_atomically(r.markdown_out, markdown);
  if (r.github) {
    out << github_annotations(o);
    const std::string summary = step_summary_path(true);
    if (!summary.empty()) append_text(summary, markdown + "\n");
  }
  if (!r.refreshed_baseline_out.empty()) {
    const auto refreshed =
        refresh_baseline(o, baseline, baseline_measured_by, current, rerun ? &*rerun : nullptr);
    if (refreshed) {
      write_text_atomically(r.refreshed_baseline_out,
                            report_json_with_provenance(refreshed->report, refreshed->measured_by));
      out << "refreshed baseline written to " << r.refreshed_baseline_out << "\n";
    } else {
      out << "refreshed baseline not written: the comparison did not pass (exit " << o.exit_code()
          << "; --accept ID lists regressions to take)\n";
    }
  }
  return o.exit_code();
}

}  // namespace rkv
