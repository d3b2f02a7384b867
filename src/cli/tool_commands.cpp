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
  f->gate_opt = sub->add_option("--gate", f->gate,
                                "what is gated: fused, pair, speedup (comma list) [default fused]")
                    ->type_name("LIST");
  sub->add_flag("--force", f->force,
                "compare despite another device/driver/runtime, other timing settings or an "
                "incomplete baseline");
  sub->add_flag("--allow-missing", f->allow_missing,
                "baseline cases absent from the current run do not fail");
  f->min_slowdown_opt =
      sub->add_option("--min-slowdown", f->min_slowdown,
                      "relative floor of the slowdown threshold, in percent [default 2]")
          ->type_name("PERCENT");
  f->slowdown_opt = sub->add_option("--max-slowdown-us", f->max_slowdown,
                                    "absolute part of the threshold floor, in us [default 0.03]")
                        ->type_name("US");
  f->tolerance_opt = sub->add_option("--speedup-tolerance", f->tolerance,
                                     "floor of the speedup's threshold with --gate speedup, in "
                                     "percent [default 5]")
                         ->type_name("PERCENT");
  f->machine_allowance_opt =
      sub->add_option("--machine-allowance", f->machine_allowance,
                      "the between-machine allowance (8% / 5.5% / 2% by token count): auto (when "
                      "the reports' GPU uuids differ or are unknown), on, off [default auto]")
          ->type_name("WHEN");
  f->rerun_opt = sub->add_option("--rerun", f->rerun,
                                 "the flagged cases timed again: a regression must show in both")
                     ->type_name("FILE");
  f->json_opt = sub->add_option("--json", f->json, "write the verdicts as JSON")->type_name("FILE");
  f->markdown_opt =
      sub->add_option("--markdown", f->markdown, "write the comparison as Markdown (a PR comment)")
          ->type_name("FILE");
  sub->add_flag("--all", f->all, "list every case, not only those that changed");
  sub->add_flag("--github", f->github,
                "print ::error/::warning annotations; append the Markdown to "
                "$GITHUB_STEP_SUMMARY");
  f->refreshed_opt =
      sub->add_option("--refreshed-baseline", f->refreshed,
                      "write the next baseline here, only when the comparison passes")
          ->type_name("FILE");
  sub->add_option("--accept", f->accept,
                  "case ids whose regression is accepted (comma list, repeatable)")
      ->type_name("IDS")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_report_flags(CLI::App* sub, ReportFlags* f) {
  sub->add_option("input", f->input, "report JSON")->type_name("FILE")->required();
  f->format_opt = sub->add_option("--format", f->format, "text, markdown or csv [default markdown]")
                      ->type_name("FORMAT");
}

void add_floor_flags(CLI::App* sub, FloorFlags* f) {
  f->patterns_opt = sub->add_option("--patterns", f->patterns,
                                    "SPAN/ROW byte counts, a comma list [default 128/384,384/384]")
                        ->type_name("LIST");
  f->moved_mib_opt = sub->add_option("--moved-mib", f->moved_mib,
                                     "MiB read (and written) by one pass [default 256]")
                         ->type_name("MIB");
  sub->add_flag("--in-place", f->in_place,
                "write each span back where it was read, as an in-place rotation does");
  f->json_opt = sub->add_option("--json", f->json, "write the results as JSON (atomically)")
                    ->type_name("FILE");
}

void apply_floor(const FloorFlags& f, CliInvocation& inv) {
  FloorRequest& r = inv.floor;
  if (f.patterns_opt->count()) {
    r.patterns.clear();
    for (const std::string& text : list_flag("--patterns", f.patterns)) {
      std::string problem;
      const std::optional<CopyPattern> p = parse_copy_pattern(text, &problem);
      if (!p) usage_fail("--patterns: " + problem);
      if (std::find(r.patterns.begin(), r.patterns.end(), *p) == r.patterns.end())
        r.patterns.push_back(*p);
    }
  }
  if (f.moved_mib_opt->count()) r.moved_mib = int_flag("--moved-mib", f.moved_mib, 1, kMaxMovedMib);
  r.in_place = f.in_place;
  if (const auto problem = floor_request_problem(r)) usage_fail("--patterns: " + *problem);
  if (f.json_opt->count()) inv.json_out = path_flag("--json", f.json);
}

void add_merge_flags(CLI::App* sub, MergeFlags* f) {
  sub->add_option("--json", f->json, "write the merged report here (atomically)")
      ->type_name("FILE")
      ->required();
  sub->add_option("inputs", f->inputs, "shard reports (bench --shard K/N)")
      ->type_name("FILE")
      ->required();
  sub->add_flag("--allow-partial", f->allow_partial,
                "merge even when shards are missing (the merged report says complete: false)");
}

void apply_merge(const MergeFlags& f, CliInvocation& inv) {
  inv.json_out = path_flag("--json", f.json);
  for (const std::string& in : f.inputs)
    inv.merge_inputs.push_back(path_flag("inputs", in));
  inv.allow_partial = f.allow_partial;
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
  CompareRequest& r = inv.compare;
  r.baseline_path = path_flag("baseline", f.baseline);
  r.current_path = path_flag("current", f.current);
  r.options.force = f.force;
  r.options.allow_missing = f.allow_missing;
  r.all_rows = f.all;
  r.github = f.github;
  if (f.gate_opt->count()) {
    r.options.gate.clear();
    for (const std::string& g : list_flag("--gate", f.gate)) {
      const auto gated = parse_gated(g);
      if (!gated) usage_fail("--gate: " + quote(g) + " is not gated (one of fused, pair, speedup)");
      if (std::find(r.options.gate.begin(), r.options.gate.end(), *gated) == r.options.gate.end())
        r.options.gate.push_back(*gated);
    }
  }
  if (f.min_slowdown_opt->count())
    r.options.rule.min_slowdown = real_flag("--min-slowdown", f.min_slowdown, 0, 100) / 100;
  if (f.slowdown_opt->count())
    r.options.rule.resolution_us = real_flag("--max-slowdown-us", f.max_slowdown, 0, 1e6);
  if (f.tolerance_opt->count())
    r.options.rule.speedup_tolerance = real_flag("--speedup-tolerance", f.tolerance, 0, 100) / 100;
  if (f.machine_allowance_opt->count()) {
    const auto mode = parse_machine_allowance(f.machine_allowance);
    if (!mode)
      usage_fail("--machine-allowance: " + quote(f.machine_allowance) +
                 " is not a machine allowance setting (one of auto, on, off)");
    r.options.machine_allowance = *mode;
  }
  if (f.rerun_opt->count()) r.rerun_path = path_flag("--rerun", f.rerun);
  if (f.json_opt->count()) r.json_out = path_flag("--json", f.json);
  if (f.markdown_opt->count()) r.markdown_out = path_flag("--markdown", f.markdown);
  if (f.refreshed_opt->count())
    r.refreshed_baseline_out = path_flag("--refreshed-baseline", f.refreshed);
  for (const std::string& list : f.accept)
    for (const std::string& id : list_flag("--accept", list))
      r.options.accept.push_back(id);
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
