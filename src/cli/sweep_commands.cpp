#include "cli/sweep_commands.h"

#include <unordered_set>

#include "cli/flag_values.h"
#include "plan/sweep_checks.h"
#include "plan/sweep_config.h"
#include "plan/token_modes.h"
#include "report/run_metadata.h"
#include "text/lists.h"
#include "text/quote.h"

namespace rkv {

void add_sweep_flags(CLI::App* sub, SweepFlags* f) {
  f->config_opt = sub->add_option("--config", f->config,
                                  "JSON sweep file (configs/*.json); axis flags replace its axes")
                      ->type_name("FILE");
  f->axis_text.assign(axis_infos().size(), {});
  for (std::size_t i = 0; i < axis_infos().size(); ++i) {
    const AxisInfo& a = axis_infos()[i];
    const std::string help = std::string(a.help) + ": " + allowed_values(a.axis) + " [default " +
                             axis_default_text(a.axis) + "]";
    f->axis_opts.push_back(
        sub->add_option(a.flag, f->axis_text[i], help)->type_name("LIST")->allow_extra_args(false));
  }
  sub->add_option("--case", f->cases,
                  "run exactly this case id (repeatable), e.g. 'bf16|auto|32x8x128|neox|nhd|N=1'")
      ->type_name("ID")
      ->allow_extra_args(false);
  f->filter_opt =
      sub->add_option("--filter", f->filter, "keep the cases whose id contains this text")
          ->type_name("TEXT");
  f->shard_opt = sub->add_option("--shard", f->shard,
                                 "run shard K of N: the planned cases whose 0-based index i has "
                                 "i % N == K-1 (after --filter)")
                     ->type_name("K/N");
  sub->add_option("--tag", f->tags, "label the report's run with key=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  sub->add_flag("--dry-run", f->dry_run,
                "print the planned cases and the dropped ones, run nothing");
}

void add_validate_flags(CLI::App* sub, ValidateFlags* f, bool with_outputs) {
  if (with_outputs) {
    f->json_opt =
        sub->add_option("--json", f->json, "write the report here (atomically)")->type_name("FILE");
    f->dump_opt = sub->add_option("--dump", f->dump,
                                  "write one folder per mismatching case (its inputs, every "
                                  "output, meta.json; docs/dump.md) under DIR")
                      ->type_name("DIR");
    sub->add_flag("--dump-all", f->dump_all, "with --dump: write every case, not only mismatching");
    sub->add_flag("--markdown", f->markdown, "print the validation table as Markdown");
    f->plant_opt = sub->add_option("--plant-error", f->plant_error,
                                   "self-test: flip the fused output's byte at this offset of the "
                                   "key cache (qkv when RoPE-only); every case must then fail")
                       ->type_name("BYTE");
  }
  f->golden_opt = sub->add_option("--golden-sample-tokens", f->golden_sample,
                                  "check larger cases against the golden model on this many "
                                  "tokens (fused vs pair always whole; 0 = always whole) "
                                  "[default 2048]")
                      ->type_name("INT");
  f->threads_opt = sub->add_option("--threads", f->threads,
                                   "golden-model host threads (0 = all cores) [default 0]")
                       ->type_name("INT");
}

void add_timing_flags(CLI::App* sub, TimingFlags* f) {
  const TimingOptions defaults;
  f->text.assign(timing_fields().size(), "");
  for (std::size_t i = 0; i < timing_fields().size(); ++i) {
    const TimingFieldInfo& t = timing_fields()[i];
    const std::string help =
        std::string(t.help) + " [default " + timing_field_text(defaults, t.field) + "]";
    f->opts.push_back(sub->add_option(t.flag, f->text[i], help)->type_name(t.type_name));
  }
  f->json_opt =
      sub->add_option("--json", f->json, "write the report here (atomically)")->type_name("FILE");
  sub->add_flag("--markdown", f->markdown, "print the tables as Markdown");
  f->csv_opt = sub->add_option("--csv", f->csv, "write one CSV row per case and mode here")
                   ->type_name("FILE");
  sub->add_flag("--no-validate", f->no_validate, "time without validating first");
  sub->add_flag("--samples", f->samples,
                "keep every variant's raw samples of every pass in the report (variants[].raw_us)");
}

CaseSpec case_flag(const std::string& id) {
  std::string why;
  const auto c = CaseSpec::parse_id(id, &why);
  if (!c) usage_fail("--case " + quote(id) + ": " + why);
  if (auto problem = case_problem(*c)) usage_fail("--case " + quote(id) + ": " + *problem);
  return *c;
}

namespace {

// --shard K/N: two integers, 1 <= K <= N.
std::pair<int, int> shard_flag(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos)
    usage_fail("--shard " + quote(text) + ": expected K/N, e.g. 2/8 (shard 2 of 8)");
  const int n = static_cast<int>(int_flag("--shard", text.substr(slash + 1), 1, 100000));
  const int k = static_cast<int>(int_flag("--shard", text.substr(0, slash), 1, 100000));
  if (k > n)
    usage_fail("--shard " + quote(text) + ": shard " + std::to_string(k) + " of " +
               std::to_string(n) + " does not exist (K is 1 to N)");
  return {k, n};
}

// A bench sweep with a timing rule per token range must give every planned case a range.
void check_token_coverage(const CliInvocation& inv) {
  if (inv.command != Command::bench) return;
  const auto uncovered = uncovered_tokens(inv.timing, inv.plan.cases);
  if (!uncovered) return;
  std::vector<std::string> ranges;
  for (const TokenModes& r : inv.timing.modes_by_tokens)
    ranges.push_back(token_range_text(r));
  usage_fail("--config " + inv.config_path + ": timing.modes_by_tokens: no range holds " +
             std::to_string(*uncovered) + " tokens (ranges " + join(ranges) + ")");
}

}  // namespace

void plan_cases(const SweepFlags& f, CliInvocation& inv) {
  inv.dry_run = f.dry_run;
  std::string given_axis_flag;
  for (std::size_t i = 0; i < axis_infos().size(); ++i) {
    if (f.axis_opts[i]->count() == 0) continue;
    const AxisInfo& a = axis_infos()[i];
    given_axis_flag = a.flag;
    std::vector<std::string> items;  // `--dtype bf16 --dtype fp16` == `--dtype bf16,fp16`
    for (const std::string& text : f.axis_text[i])
      for (const std::string& item : list_flag(a.flag, text))
        items.push_back(item);
    if (auto err = set_axis(inv.axes, a.axis, items)) usage_fail(std::string(a.flag) + ": " + *err);
  }

  if (!f.cases.empty()) {
    if (!given_axis_flag.empty())
      usage_fail("--case: cannot be combined with " + given_axis_flag +
                 " (--case names exact cases; use --filter to narrow a sweep)");
    std::unordered_set<std::string> seen;
    for (const std::string& id : f.cases) {
      const CaseSpec c = case_flag(id);
      if (seen.insert(c.id()).second) inv.plan.cases.push_back(c);
    }
    inv.case_ids = f.cases;
  } else {
    // A rot-dim no head config can take, or a product with nothing left to run, is a mistake
    // in the flags or the file: say where it came from.
    const std::string from_file = "--config " + inv.config_path + ": ";
    bool rot_flag = false;
    for (std::size_t i = 0; i < axis_infos().size(); ++i)
      rot_flag = rot_flag || (axis_infos()[i].axis == Axis::rot_dim && f.axis_opts[i]->count());
    // Counted before anything is planned: the checks below plan the product to look at it.
    if (auto err = sweep_size_problem(inv.axes, inv.extra_cases))
      usage_fail((inv.config_path.empty() || !given_axis_flag.empty() ? std::string("the sweep")
                                                                      : from_file + "axes") +
                 ": " + *err);
    if (auto err = rot_dim_problem(inv.axes))
      usage_fail(
          (rot_flag ? std::string(axis_info(Axis::rot_dim).flag) : from_file + "axes.rot_dim") +
          ": " + *err);
    if (auto err = empty_sweep_problem(inv.axes))
      usage_fail((inv.config_path.empty() || !given_axis_flag.empty() ? std::string("the sweep")
                                                                      : from_file + "axes") +
                 ": " + *err);
    for (std::size_t i = 0; i < inv.extra_cases.size(); ++i) {
      const std::string where = from_file + "extra_cases[" + std::to_string(i) + "]";
      if (auto err = rot_dim_problem(inv.extra_cases[i])) usage_fail(where + ".rot_dim: " + *err);
      if (auto err = empty_sweep_problem(inv.extra_cases[i])) usage_fail(where + ": " + *err);
    }
    inv.plan = plan_sweep(inv.axes, inv.extra_cases);
  }

  if (f.filter_opt->count()) {
    inv.filter = f.filter;
    const std::size_t before = inv.plan.cases.size();
    filter_plan(inv.plan, f.filter);
    if (inv.plan.cases.empty())
      usage_fail("--filter " + quote(f.filter) + ": matches none of the " + std::to_string(before) +
                 " planned cases");
  }
  check_token_coverage(inv);

  if (f.shard_opt->count()) {
    const auto [k, n] = shard_flag(f.shard);
    ShardInfo& shard = inv.run_metadata.shard;
    shard.indices = {k};
    shard.count = n;
    shard.planned_cases = static_cast<std::int64_t>(inv.plan.cases.size());
    shard_plan(inv.plan, k, n);
    if (inv.plan.cases.empty())
      usage_fail("--shard " + quote(f.shard) + ": shard " + std::to_string(k) + " of " +
                 std::to_string(n) + " holds none of the " + std::to_string(shard.planned_cases) +
                 " planned cases");
  }
}

void apply_sweep(const SweepFlags& f, CliInvocation& inv) {
  if (f.config_opt->count()) {
    inv.config_path = path_flag("--config", f.config);
    SweepConfig cfg;
    if (auto err = load_sweep_config(inv.config_path, &cfg)) usage_fail("--config " + *err);
    inv.config_name = cfg.name;
    inv.run_metadata.config_path = inv.config_path;
    inv.run_metadata.config_name = cfg.name;
    inv.run_metadata.config_hash = file_fnv1a64(inv.config_path).value_or("");
    inv.axes = cfg.axes;
    inv.extra_cases = cfg.extra_cases;
    inv.timing = cfg.timing;
  }
  if (auto err = parse_tags(f.tags, &inv.run_metadata.tags)) usage_fail("--tag " + *err);
}

void apply_validate(const ValidateFlags& f, CliInvocation& inv) {
  if (f.json_opt && f.json_opt->count()) inv.json_out = path_flag("--json", f.json);
  inv.markdown = inv.markdown || f.markdown;
  if (f.dump_opt && f.dump_opt->count()) inv.dump_dir = path_flag("--dump", f.dump);
  if (f.dump_all && inv.dump_dir.empty()) usage_fail("--dump-all: needs --dump DIR");
  inv.dump_all = f.dump_all;
  if (f.plant_opt && f.plant_opt->count())
    inv.plant_error_at = int_flag("--plant-error", f.plant_error, 0, std::int64_t{1} << 40);
  if (f.golden_opt->count())
    inv.golden_sample_tokens =
        static_cast<int>(int_flag("--golden-sample-tokens", f.golden_sample, 0, kMaxTokens));
  if (f.threads_opt->count())
    inv.threads = static_cast<int>(int_flag("--threads", f.threads, 0, 1024));
}

void apply_timing(const TimingFlags& f, CliInvocation& inv) {
  std::string last_flag;
  for (std::size_t i = 0; i < timing_fields().size(); ++i) {
    if (f.opts[i]->count() == 0) continue;
    const TimingFieldInfo& t = timing_fields()[i];
    if (auto err = set_timing_field(inv.timing, t.field, f.text[i]))
      usage_fail(std::string(t.flag) + ": " + *err);
    last_flag = t.flag;
  }
  if (auto err = timing_problem(inv.timing))
    usage_fail((last_flag.empty() ? std::string("--config ") + inv.config_path : last_flag) + ": " +
               *err);
  if (f.json_opt->count()) inv.json_out = path_flag("--json", f.json);
  if (f.csv_opt->count()) inv.csv_out = path_flag("--csv", f.csv);
  inv.markdown = f.markdown;
  inv.validate_first = !f.no_validate;
  inv.keep_samples = f.samples;
}

}  // namespace rkv
