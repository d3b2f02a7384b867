#include "cli/tool_commands.h"

#include <algorithm>

#include "cli/flag_values.h"
#include "cli/sweep_commands.h"
#include "text/lists.h"
#include "text/quote.h"

namespace rkv {

void add_profile_flags(CLI::App* sub, ProfileFlags* f) {
  sub->add_option("--case", f->case_id, "the case id")->type_name("ID")->required();
  f->launches_opt = sub->add_option("--launches", f->launches, "launches per variant [default 10]")
                        ->type_name("INT");
  f->variants_opt =
      sub->add_option("--variants", f->variants,
                      "variants to launch: fused, pair (rope then cache_write), rope, cache_write "
                      "[default fused,pair]")
          ->type_name("LIST");
}

void add_compare_flags(CLI::App* sub, CompareFlags* f) {
  sub->add_option("baseline", f->baseline, "baseline report")->type_name("FILE")->required();
  sub->add_option("current", f->current, "current report")->type_name("FILE")->required();
  sub->add_flag("--force", f->force, "compare even when the device fingerprints differ");
  sub->add_flag("--markdown", f->markdown, "print the comparison as Markdown");
  f->slowdown_opt = sub->add_option("--max-slowdown-us", f->max_slowdown,
                                    "a fused-time slowdown must also exceed this many us "
                                    "[default 0.2]")
                        ->type_name("US");
  f->tolerance_opt = sub->add_option("--speedup-tolerance", f->tolerance,
                                     "allowed drop of the in-run speedup, in percent [default 5]")
                         ->type_name("PERCENT");
  f->refreshed_opt = sub->add_option("--refreshed-baseline", f->refreshed,
                                     "write a refreshed baseline here for review")
                         ->type_name("FILE");
}

void add_report_flags(CLI::App* sub, ReportFlags* f) {
  sub->add_option("input", f->input, "report JSON")->type_name("FILE")->required();
  f->format_opt = sub->add_option("--format", f->format, "text, markdown or csv [default markdown]")
                      ->type_name("FORMAT");
}

void apply_profile(const ProfileFlags& f, CliInvocation& inv) {
  const CaseSpec c = case_flag(f.case_id);
  inv.case_id = c.id();
  inv.case_ids = {f.case_id};
  inv.plan.cases = {c};
  if (f.launches_opt->count())
    inv.launches = static_cast<int>(int_flag("--launches", f.launches, 1, 100000));
  if (f.variants_opt->count()) {
    inv.variants.clear();
    for (const std::string& name : list_flag("--variants", f.variants)) {
      const std::optional<Variant> v = parse_variant(name);
      if (!v)
        usage_fail("--variants: " + quote(name) + " is not a variant (one of " +
                   join(variant_names()) + ")");
      if (std::find(inv.variants.begin(), inv.variants.end(), *v) == inv.variants.end())
        inv.variants.push_back(*v);
    }
  }
}

void apply_compare(const CompareFlags& f, CliInvocation& inv) {
  inv.baseline_path = path_flag("baseline", f.baseline);
  inv.current_path = path_flag("current", f.current);
  inv.force = f.force;
  inv.markdown = f.markdown;
  if (f.slowdown_opt->count())
    inv.max_slowdown_us = real_flag("--max-slowdown-us", f.max_slowdown, 0, 1e6);
  if (f.tolerance_opt->count())
    inv.speedup_tolerance = real_flag("--speedup-tolerance", f.tolerance, 0, 100) / 100;
  if (f.refreshed_opt->count())
    inv.refreshed_baseline_out = path_flag("--refreshed-baseline", f.refreshed);
}

void apply_report(const ReportFlags& f, CliInvocation& inv) {
  inv.report_input = path_flag("input", f.input);
  if (f.format_opt->count()) {
    if (f.format != "text" && f.format != "markdown" && f.format != "csv")
      usage_fail("--format: " + quote(f.format) +
                 " is not a report format (one of text, markdown, csv)");
    inv.report_format = f.format;
  }
}

}  // namespace rkv
