// The command line. CLI11 only splits argv into flags and subcommands; every value is kept as
// text and parsed by the project's own parsers (set_axis, set_timing_field, CaseSpec::parse_id),
// so a flag and a config file accept the same values and fail with the same words.
#include "cli/cli.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <unordered_set>

#include <CLI/CLI.hpp>

#include "plan/sweep_config.h"

namespace rkv {
namespace {

constexpr const char* kTool = "rope-kv-bench";

// Thrown inside the parser, caught once in parse_cli: one line, exit 4.
struct UsageError {
  std::string line;
};

[[noreturn]] void fail(const std::string& line) {
  throw UsageError{line};
}

std::string squote(const std::string& s) {
  return "'" + s + "'";
}

std::string one_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

long long int_flag(const std::string& flag, const std::string& text, long long lo, long long hi) {
  bool digits = !text.empty() && text.size() <= 19;
  for (std::size_t i = 0; i < text.size(); ++i)
    digits = digits &&
             ((text[i] >= '0' && text[i] <= '9') || (i == 0 && text[i] == '-' && text.size() > 1));
  if (!digits) fail(flag + ": " + squote(text) + " is not an integer");
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (v < lo || v > hi)
    fail(flag + ": " + squote(text) + " is out of range [" + std::to_string(lo) + ", " +
         std::to_string(hi) + "]");
  return v;
}

double real_flag(const std::string& flag, const std::string& text, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || errno == ERANGE || end != text.c_str() + text.size() || !std::isfinite(v))
    fail(flag + ": " + squote(text) + " is not a number");
  if (v < lo || v > hi) {
    std::ostringstream range;
    range << "[" << lo << ", " << hi << "]";
    fail(flag + ": " + squote(text) + " is out of range " + range.str());
  }
  return v;
}

std::string path_flag(const std::string& flag, const std::string& text) {
  if (text.empty()) fail(flag + ": an empty path");
  return text;
}

std::vector<std::string> split_list(const std::string& flag, const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(',', start);
    items.push_back(text.substr(start, at - start));
    if (items.back().empty()) fail(flag + ": " + squote(text) + " has an empty value");
    if (at == std::string::npos) return items;
    start = at + 1;
  }
}

// ---- flag groups, each bound to one subcommand. CLI11 writes into these by reference, so they
// live in the Parser below for the whole parse.

struct SweepFlags {
  std::string config;
  std::vector<std::vector<std::string>> axis_text;  // indexed like axis_infos()
  std::vector<CLI::Option*> axis_opts;
  std::vector<std::string> cases;
  std::string filter;
  bool dry_run = false;
  CLI::Option* config_opt = nullptr;
  CLI::Option* filter_opt = nullptr;
};

struct TimingFlags {
  std::vector<std::string> text;  // indexed like timing_fields()
  std::vector<CLI::Option*> opts;
  bool markdown = false, no_validate = false;
  std::string json, csv;
  CLI::Option *json_opt = nullptr, *csv_opt = nullptr;
};

struct ValidateFlags {
  std::string json, dump, golden_sample, threads, plant_error;
  bool markdown = false;
  CLI::Option *json_opt = nullptr, *dump_opt = nullptr, *golden_opt = nullptr,
              *threads_opt = nullptr, *plant_opt = nullptr;
};

struct ProfileFlags {
  std::string case_id, launches, variants;
  CLI::Option *launches_opt = nullptr, *variants_opt = nullptr;
};

struct CompareFlags {
  std::string baseline, current, gate, min_slowdown, max_slowdown, tolerance, refreshed, rerun,
      json, markdown;
  std::vector<std::string> accept;
  bool force = false, allow_missing = false, all = false, github = false;
  CLI::Option *gate_opt = nullptr, *min_slowdown_opt = nullptr, *slowdown_opt = nullptr,
              *tolerance_opt = nullptr, *refreshed_opt = nullptr, *rerun_opt = nullptr,
              *json_opt = nullptr, *markdown_opt = nullptr;
};

struct ReportFlags {
  std::string input, format;
  CLI::Option* format_opt = nullptr;
};

std::string defaults_of(Axis axis) {
  return join(axis_value_names(SweepAxes{}, axis), ",");
}

std::string timing_value(const TimingOptions& t, TimingField f) {
  std::ostringstream s;
  switch (f) {
    case TimingField::modes: {
      std::vector<std::string> names;
      for (TimingMode m : t.modes)
        names.push_back(to_string(m));
      s << join(names, ",");
      break;
    }
    case TimingField::min_samples:
      s << t.min_samples;
      break;
    case TimingField::max_noise:
      s << t.max_noise * 100;
      break;
    case TimingField::min_time_s:
      s << t.min_time_s;
      break;
    case TimingField::timeout_s:
      s << t.timeout_s;
      break;
    case TimingField::warmup_s:
      s << t.warmup_s;
      break;
    case TimingField::warmup_min:
      s << t.warmup_min;
      break;
    case TimingField::graph_launches:
      s << t.graph_launches;
      break;
    case TimingField::wall_launches:
      s << t.wall_launches;
      break;
    case TimingField::batch_launches:
      s << t.batch_launches;
      break;
    case TimingField::passes:
      s << t.passes;
      break;
  }
  return s.str();
}

void add_sweep_flags(CLI::App* sub, SweepFlags* f) {
  f->config_opt = sub->add_option("--config", f->config,
                                  "JSON sweep file (configs/*.json); axis flags replace its axes")
                      ->type_name("FILE");
  f->axis_text.assign(axis_infos().size(), {});
  for (std::size_t i = 0; i < axis_infos().size(); ++i) {
    const AxisInfo& a = axis_infos()[i];
    const std::string help = std::string(a.help) + ": " + allowed_values(a.axis) + " [default " +
                             defaults_of(a.axis) + "]";
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
  sub->add_flag("--dry-run", f->dry_run,
                "print the planned cases and the dropped ones, run nothing");
}

void add_validate_flags(CLI::App* sub, ValidateFlags* f, bool with_outputs) {
  if (with_outputs) {
    f->json_opt =
        sub->add_option("--json", f->json, "write the report here (atomically)")->type_name("FILE");
    f->dump_opt =
        sub->add_option("--dump", f->dump, "write the inputs and outputs of mismatching cases here")
            ->type_name("DIR");
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
        std::string(t.help) + " [default " + timing_value(defaults, t.field) + "]";
    f->opts.push_back(sub->add_option(t.flag, f->text[i], help)->type_name(t.type_name));
  }
  f->json_opt =
      sub->add_option("--json", f->json, "write the report here (atomically)")->type_name("FILE");
  sub->add_flag("--markdown", f->markdown, "print the tables as Markdown");
  f->csv_opt = sub->add_option("--csv", f->csv, "write one CSV row per case and mode here")
                   ->type_name("FILE");
  sub->add_flag("--no-validate", f->no_validate, "time without validating first");
}

// The largest rotary dim any head config of `axes` allows.
int largest_rot_dim(const SweepAxes& axes) {
  int largest = 0;
  for (const HeadConfig& h : axes.heads)
    largest = std::max(largest, h.mla ? 64 : h.head_size);
  return largest;
}

// A rot-dim that no head config can take is a usage error, not a silent all-dropped plan; one
// that fits some head configs but not others is dropped for those (a sweep over head sizes).
void check_rot_dims(const SweepAxes& axes, const std::string& where) {
  const int largest = largest_rot_dim(axes);
  for (const RotDim& r : axes.rot_dim)
    if (r.kind == RotDim::Kind::value && r.value > largest)
      fail(where + ": " + squote(r.name()) + " is larger than every head size in the sweep (" +
           (largest == 64 && axes.heads.size() == 1 && axes.heads[0].mla
                ? "MLA rotates 64 dims"
                : "largest " + std::to_string(largest)) +
           ")");
}

// Each product (the main axes, each extra case) must yield a case; an all-dropped one is a
// mistake in the flags or the file.
void require_cases(const SweepAxes& axes, const std::string& where) {
  const SweepPlan p = plan_sweep(axes);
  if (!p.cases.empty()) return;
  std::string line = where + ": no cases to run: every combination (" +
                     std::to_string(p.dropped.size()) + ") was dropped";
  if (!p.dropped.empty()) line += ", e.g. " + p.dropped[0].first + ": " + p.dropped[0].second;
  fail(line);
}

void plan_cases(SweepFlags& f, CliInvocation& inv) {
  inv.dry_run = f.dry_run;
  std::string given_axis_flag;
  for (std::size_t i = 0; i < axis_infos().size(); ++i) {
    if (f.axis_opts[i]->count() == 0) continue;
    const AxisInfo& a = axis_infos()[i];
    given_axis_flag = a.flag;
    std::vector<std::string> items;  // `--dtype bf16 --dtype fp16` == `--dtype bf16,fp16`
    for (const std::string& text : f.axis_text[i])
      for (const std::string& item : split_list(a.flag, text))
        items.push_back(item);
    if (auto err = set_axis(inv.axes, a.axis, items)) fail(std::string(a.flag) + ": " + *err);
  }

  if (!f.cases.empty()) {
    if (!given_axis_flag.empty())
      fail("--case: cannot be combined with " + given_axis_flag +
           " (--case names exact cases; use --filter to narrow a sweep)");
    std::unordered_set<std::string> seen;
    for (const std::string& id : f.cases) {
      std::string why;
      const auto c = CaseSpec::parse_id(id, &why);
      if (!c) fail("--case " + squote(id) + ": " + why);
      if (auto problem = case_problem(*c)) fail("--case " + squote(id) + ": " + *problem);
      if (seen.insert(c->id()).second) inv.plan.cases.push_back(*c);
    }
    inv.case_ids = f.cases;
  } else {
    const std::string from_file = "--config " + inv.config_path + ": ";
    for (std::size_t i = 0; i < axis_infos().size(); ++i) {
      const AxisInfo& a = axis_infos()[i];
      if (a.axis != Axis::rot_dim) continue;
      check_rot_dims(inv.axes,
                     f.axis_opts[i]->count() ? std::string(a.flag) : from_file + "axes.rot_dim");
    }
    require_cases(inv.axes, inv.config_path.empty() || !given_axis_flag.empty()
                                ? std::string("the sweep")
                                : from_file + "axes");
    for (std::size_t i = 0; i < inv.extra_cases.size(); ++i) {
      const std::string where = from_file + "extra_cases[" + std::to_string(i) + "]";
      check_rot_dims(inv.extra_cases[i], where + ".rot_dim");
      require_cases(inv.extra_cases[i], where);
    }
    inv.plan = plan_sweep(inv.axes, inv.extra_cases);
  }

  if (f.filter_opt->count()) {
    inv.filter = f.filter;
    const std::size_t before = inv.plan.cases.size();
    filter_plan(inv.plan, f.filter);
    if (inv.plan.cases.empty())
      fail("--filter " + squote(f.filter) + ": matches none of the " + std::to_string(before) +
           " planned cases");
  }
}

void apply_sweep(SweepFlags& f, CliInvocation& inv) {
  if (f.config_opt->count()) {
    inv.config_path = path_flag("--config", f.config);
    SweepConfig cfg;
    if (auto err = load_sweep_config(inv.config_path, &cfg)) fail("--config " + *err);
    inv.config_name = cfg.name;
    inv.axes = cfg.axes;
    inv.extra_cases = cfg.extra_cases;
    inv.timing = cfg.timing;
  }
}

void apply_validate(const ValidateFlags& f, CliInvocation& inv) {
  if (f.json_opt && f.json_opt->count()) inv.json_out = path_flag("--json", f.json);
  inv.markdown = inv.markdown || f.markdown;
  if (f.dump_opt && f.dump_opt->count()) inv.dump_dir = path_flag("--dump", f.dump);
  if (f.plant_opt && f.plant_opt->count())
    inv.plant_error_at = int_flag("--plant-error", f.plant_error, 0, 1ll << 40);
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
    if (t.field == TimingField::modes) split_list(t.flag, f.text[i]);  // reject empty items
    if (auto err = set_timing_field(inv.timing, t.field, f.text[i]))
      fail(std::string(t.flag) + ": " + *err);
    last_flag = t.flag;
  }
  if (auto err = timing_problem(inv.timing))
    fail((last_flag.empty() ? std::string("--config ") + inv.config_path : last_flag) + ": " +
         *err);
  if (f.json_opt->count()) inv.json_out = path_flag("--json", f.json);
  if (f.csv_opt->count()) inv.csv_out = path_flag("--csv", f.csv);
  inv.markdown = f.markdown;
  inv.validate_first = !f.no_validate;
}

void apply_profile(const ProfileFlags& f, CliInvocation& inv) {
  std::string why;
  const auto c = CaseSpec::parse_id(f.case_id, &why);
  if (!c) fail("--case " + squote(f.case_id) + ": " + why);
  if (auto problem = case_problem(*c)) fail("--case " + squote(f.case_id) + ": " + *problem);
  inv.case_id = c->id();
  inv.case_ids = {f.case_id};
  inv.plan.cases = {*c};
  if (f.launches_opt->count())
    inv.launches = static_cast<int>(int_flag("--launches", f.launches, 1, 100000));
  if (f.variants_opt->count()) {
    inv.variants.clear();
    for (const std::string& v : split_list("--variants", f.variants)) {
      if (v != "fused" && v != "pair" && v != "rope" && v != "cache_write")
        fail("--variants: " + squote(v) +
             " is not a variant (one of fused, pair, rope, cache_write)");
      bool dup = false;
      for (const std::string& seen : inv.variants)
        dup = dup || seen == v;
      if (!dup) inv.variants.push_back(v);
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
    for (const std::string& g : split_list("--gate", f.gate)) {
      const auto gated = parse_gated(g);
      if (!gated) fail("--gate: " + squote(g) + " is not gated (one of fused, pair, speedup)");
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
  if (f.rerun_opt->count()) r.rerun_path = path_flag("--rerun", f.rerun);
  if (f.json_opt->count()) r.json_out = path_flag("--json", f.json);
  if (f.markdown_opt->count()) r.markdown_out = path_flag("--markdown", f.markdown);
  if (f.refreshed_opt->count())
    r.refreshed_baseline_out = path_flag("--refreshed-baseline", f.refreshed);
  for (const std::string& list : f.accept)
    for (const std::string& id : split_list("--accept", list))
      r.options.accept.push_back(id);
}

void apply_report(const ReportFlags& f, CliInvocation& inv) {
  inv.report_input = path_flag("input", f.input);
  if (f.format_opt->count()) {
    if (f.format != "text" && f.format != "markdown" && f.format != "csv")
      fail("--format: " + squote(f.format) +
           " is not a report format (one of text, markdown, csv)");
    inv.report_format = f.format;
  }
}

ParseOutcome usage_error(const std::string& line) {
  ParseOutcome out;
  out.exit_code = kExitUsage;
  out.message = std::string(kTool) + ": error: " + one_line(line) + "\n";
  return out;
}

ParseOutcome parse_or_throw(int argc, const char* const* argv) {
  CLI::App app{
      "rope-kv-bench: a fused RoPE + paged KV-cache write kernel, validated bit for bit "
      "against the unfused pair and a CPU golden model, and timed against the pair.",
      kTool};
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  rope-kv-bench bench --config configs/seed-table.json\n"
      "  rope-kv-bench validate --dtype bf16,fp16 --cache-dtype auto,fp8_e4m3 --tokens 1,7,128\n"
      "  rope-kv-bench bench --config configs/decode.json --dry-run\n"
      "Run `rope-kv-bench list` for every axis and its values, `<command> --help` for options.");

  SweepFlags validate_sweep, bench_sweep;
  ValidateFlags validate_flags, bench_validate_flags;
  TimingFlags timing_flags;
  ProfileFlags profile_flags;
  CompareFlags compare_flags;
  ReportFlags report_flags;

  CLI::App* validate = app.add_subcommand(
      "validate", "check fused, pair and golden model agree byte for byte on every planned case");
  add_sweep_flags(validate, &validate_sweep);
  add_validate_flags(validate, &validate_flags, true);

  CLI::App* bench = app.add_subcommand(
      "bench", "validate, then time the fused kernel against the unfused pair; print speedups");
  add_sweep_flags(bench, &bench_sweep);
  add_timing_flags(bench, &timing_flags);
  add_validate_flags(bench, &bench_validate_flags, false);

  CLI::App* compare = app.add_subcommand(
      "compare",
      "gate a bench report against a baseline; exit 0 pass, 1 regression or missing case, 2 a "
      "case did not pass, 3 inconclusive (interrupted run), 4 usage, 5 other environment");
  compare->add_option("baseline", compare_flags.baseline, "baseline report")
      ->type_name("FILE")
      ->required();
  compare->add_option("current", compare_flags.current, "current report")
      ->type_name("FILE")
      ->required();
  compare_flags.gate_opt =
      compare
          ->add_option("--gate", compare_flags.gate,
                       "what is gated: fused, pair, speedup (comma list) [default fused]")
          ->type_name("LIST");
  compare->add_flag("--force", compare_flags.force,
                    "compare despite another device/driver/runtime, other timing settings or an "
                    "incomplete baseline");
  compare->add_flag("--allow-missing", compare_flags.allow_missing,
                    "baseline cases absent from the current run do not fail");
  compare_flags.min_slowdown_opt =
      compare
          ->add_option("--min-slowdown", compare_flags.min_slowdown,
                       "relative floor of the slowdown threshold, in percent [default 2]")
          ->type_name("PERCENT");
  compare_flags.slowdown_opt =
      compare
          ->add_option("--max-slowdown-us", compare_flags.max_slowdown,
                       "absolute part of the threshold floor, in us [default 0.03]")
          ->type_name("US");
  compare_flags.tolerance_opt =
      compare
          ->add_option("--speedup-tolerance", compare_flags.tolerance,
                       "floor of the speedup's threshold with --gate speedup, in percent "
                       "[default 5]")
          ->type_name("PERCENT");
  compare_flags.rerun_opt =
      compare
          ->add_option("--rerun", compare_flags.rerun,
                       "the flagged cases timed again: a regression must show in both")
          ->type_name("FILE");
  compare_flags.json_opt =
      compare->add_option("--json", compare_flags.json, "write the verdicts as JSON")
          ->type_name("FILE");
  compare_flags.markdown_opt = compare
                                   ->add_option("--markdown", compare_flags.markdown,
                                                "write the comparison as Markdown (a PR comment)")
                                   ->type_name("FILE");
  compare->add_flag("--all", compare_flags.all, "list every case, not only those that changed");
  compare->add_flag("--github", compare_flags.github,
                    "print ::error/::warning annotations; append the Markdown to "
                    "$GITHUB_STEP_SUMMARY");
  compare_flags.refreshed_opt =
      compare
          ->add_option("--refreshed-baseline", compare_flags.refreshed,
                       "write the next baseline here, only when the comparison passes")
          ->type_name("FILE");
  compare
      ->add_option("--accept", compare_flags.accept,
                   "case ids whose regression is accepted (comma list, repeatable)")
      ->type_name("IDS")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  CLI::App* profile = app.add_subcommand(
      "profile",
      "exactly N launches per variant between cudaProfilerStart/Stop, in NVTX ranges "
      "named by the case id (for nsys / ncu)");
  profile->add_option("--case", profile_flags.case_id, "the case id")->type_name("ID")->required();
  profile_flags.launches_opt =
      profile->add_option("--launches", profile_flags.launches, "launches per variant [default 10]")
          ->type_name("INT");
  profile_flags.variants_opt =
      profile
          ->add_option("--variants", profile_flags.variants,
                       "variants to launch: fused, pair (rope then cache_write), rope, cache_write "
                       "[default fused,pair]")
          ->type_name("LIST");

  CLI::App* report = app.add_subcommand("report", "print the tables of a bench JSON report");
  report->add_option("input", report_flags.input, "report JSON")->type_name("FILE")->required();
  report_flags.format_opt =
      report
          ->add_option("--format", report_flags.format, "text, markdown or csv [default markdown]")
          ->type_name("FORMAT");

  CLI::App* list = app.add_subcommand("list", "print the sweep axes and their values");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help: CLI11 renders the selected subcommand's help
      std::ostringstream out, err;
      app.exit(e, out, err);
      ParseOutcome help;
      help.message = out.str();
      if (help.message.empty() || help.message.back() != '\n') help.message += '\n';
      return help;
    }
    if (app.get_subcommands().empty() && e.get_name() == "RequiredError") {
      const std::string commands = "validate, bench, compare, profile, report or list";
      if (argc < 2) return usage_error("a command is required: " + commands);
      if (argv[1][0] == '-')
        return usage_error(squote(argv[1]) + ": the command comes first (" + commands + ")");
      return usage_error(squote(argv[1]) + " is not a command (" + commands + ")");
    }
    return usage_error(e.what());
  }

  CliInvocation inv;
  for (int i = 0; i < argc; ++i)
    inv.argv.emplace_back(argv[i]);
  if (app.got_subcommand(validate)) {
    inv.command = Command::validate;
    apply_sweep(validate_sweep, inv);
    apply_validate(validate_flags, inv);
    plan_cases(validate_sweep, inv);
  } else if (app.got_subcommand(bench)) {
    inv.command = Command::bench;
    apply_sweep(bench_sweep, inv);
    apply_validate(bench_validate_flags, inv);
    apply_timing(timing_flags, inv);
    plan_cases(bench_sweep, inv);
  } else if (app.got_subcommand(compare)) {
    inv.command = Command::compare;
    apply_compare(compare_flags, inv);
  } else if (app.got_subcommand(profile)) {
    inv.command = Command::profile;
    apply_profile(profile_flags, inv);
  } else if (app.got_subcommand(report)) {
    inv.command = Command::report;
    apply_report(report_flags, inv);
  } else if (app.got_subcommand(list)) {
    inv.command = Command::list;
  }
  ParseOutcome out;
  out.invocation = std::move(inv);
  return out;
}

}  // namespace

std::string to_string(Command c) {
  switch (c) {
    case Command::validate:
      return "validate";
    case Command::bench:
      return "bench";
    case Command::compare:
      return "compare";
    case Command::profile:
      return "profile";
    case Command::report:
      return "report";
    case Command::list:
      return "list";
  }
  return "unknown";
}

ParseOutcome parse_cli(int argc, const char* const* argv) {
  try {
    return parse_or_throw(argc, argv);
  } catch (const UsageError& e) {
    return usage_error(e.line);
  } catch (const std::exception& e) {  // CLI11 or the standard library: still one line, exit 4
    return usage_error(e.what());
  } catch (...) {
    return usage_error("unexpected error while reading the command line");
  }
}

// "  hnd         K, V: [num_blocks, Hkv, block_size, D]", from the layout itself.
static std::string layout_line(const std::string& name) {
  const CacheLayout l = *CacheLayout::parse(name);
  std::vector<std::string> dims;
  for (PagedDim d : l.order)
    dims.push_back(d == PagedDim::block  ? "num_blocks"
                   : d == PagedDim::slot ? "block_size"
                                         : "Hkv");
  dims.push_back(l.packed ? "2*D" : "D");
  std::string s = "  " + name;
  s.resize(std::max<std::size_t>(s.size() + 1, 14), ' ');
  return s + (l.packed ? "KV:   [" : "K, V: [") + join(dims) + "]\n";
}

std::string list_text() {
  auto row = [](const std::string& flag, const std::string& key, const std::string& values,
                const std::string& def) {
    std::string s = "  " + flag;
    s.resize(std::max<std::size_t>(s.size() + 1, 21), ' ');
    s += key;
    s.resize(std::max<std::size_t>(s.size() + 1, 37), ' ');
    return s + values + "  [default " + def + "]\n";
  };
  std::string out =
      "Sweep axes (bench, validate): flag, config key under \"axes\", values, default\n";
  for (const AxisInfo& a : axis_infos())
    out += row(a.flag, a.key, allowed_values(a.axis), defaults_of(a.axis));
  out += "\nTiming (bench): flag, config key under \"timing\", meaning, default\n";
  const TimingOptions defaults;
  for (const TimingFieldInfo& t : timing_fields())
    out += row(t.flag, t.key, t.help, timing_value(defaults, t.field));
  out +=
      "\nCache layouts, outer -> inner (any order of b(lock), s(lot), h(ead), e.g. hbs, "
      "packed_sbh):\n";
  for (const std::string& name : CacheLayout::preset_names())
    out += layout_line(name);
  out +=
      "\nCase id: dtype|cache_dtype|heads|style|layout|N=tokens, then |key=value for options "
      "that differ from the default (rot, bs, scale, slots, qout, kout, cs, seed).\n";
  return out;
}

}  // namespace rkv
