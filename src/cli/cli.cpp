// The command line. CLI11 only splits argv into flags and subcommands; every value is kept as
// text and parsed by the project's own parsers (set_axis, set_timing_field, CaseSpec::parse_id,
// text/), so a flag and a config file accept the same values and fail with the same words. The
// flags of each command are in sweep_commands.cpp (validate, bench) and tool_commands.cpp.
#include "cli/cli.h"

#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/error_text.h"
#include "cli/flag_values.h"
#include "cli/history_commands.h"
#include "cli/output_paths.h"
#include "cli/parse_errors.h"
#include "cli/sweep_commands.h"
#include "cli/tool_commands.h"
#include "report/build_info.h"
#include "text/quote.h"

namespace rkv {
namespace {

constexpr const char* kTool = "rope-kv-bench";
constexpr const char* kCommands =
    "validate, bench, compare, profile, report, list, history, dashboard, merge or floor";

ParseOutcome usage_error(const std::string& line) {
  ParseOutcome out;
  out.exit_code = kExitUsage;
  out.message = std::string(kTool) + ": error: " + one_line(line) + "\n";
  return out;
}

// What stands where the command should: a flag given too early, or a word that is no command.
ParseOutcome not_a_command(const std::string& first) {
  if (first.size() > 1 && first[0] == '-')
    return usage_error(quote(first) + ": the command comes first (" + kCommands + ")");
  return usage_error(quote(first) + " is not a command (" + kCommands + ")");
}

ParseOutcome parse_or_throw(int argc, const char* const* argv) {
  CLI::App app{
      "rope-kv-bench: a fused RoPE + paged KV-cache write kernel, validated bit for bit "
      "against the unfused pair and a CPU golden model, and timed against the pair.",
      kTool};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_line());
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
  add_compare_flags(compare, &compare_flags);

  CLI::App* profile = app.add_subcommand(
      "profile",
      "exactly N launches per variant between cudaProfilerStart/Stop, in NVTX ranges "
      "named by the case id (for nsys / ncu)");
  add_profile_flags(profile, &profile_flags);

  CLI::App* report = app.add_subcommand("report", "print the tables of a bench JSON report");
  add_report_flags(report, &report_flags);

  CLI::App* list = app.add_subcommand("list", "print the sweep axes and their values");

  MergeFlags merge_flags;
  CLI::App* merge = app.add_subcommand(
      "merge", "merge shard reports (bench --shard K/N) of one run into one report");
  add_merge_flags(merge, &merge_flags);

  HistoryFlags history_flags;
  add_history_commands(app, &history_flags);

  FloorFlags floor_flags;
  CLI::App* floor = app.add_subcommand(
      "floor",
      "time a plain copy of SPAN bytes of every ROW bytes against the contiguous copy bandwidth "
      "(the ceiling of a strided access shape)");
  add_floor_flags(floor, &floor_flags);

  prepare_for_parse(app);
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
      if (argc < 2) return usage_error(std::string("a command is required: ") + kCommands);
      return not_a_command(argv[1]);
    }
    return usage_error(parse_error_line(e, deepest_command(app), argc, argv));
  }
  // Arguments before the command are kept by allow_extras on the top level: none may be.
  if (const std::vector<std::string> before = app.remaining(); !before.empty())
    return not_a_command(before.front());
  // Every level of a nested command (`history add`) keeps its own extras and options.
  for (std::vector<CLI::App*> given = app.get_subcommands(); !given.empty();
       given = given.front()->get_subcommands())
    check_parsed_arguments(*given.front(), argc, argv);

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
  } else if (app.got_subcommand(merge)) {
    inv.command = Command::merge;
    apply_merge(merge_flags, inv);
  } else if (app.got_subcommand(list)) {
    inv.command = Command::list;
  } else if (app.got_subcommand(floor)) {
    inv.command = Command::floor;
    apply_floor(floor_flags, inv);
  } else if (auto h = history_request(history_flags)) {
    inv.command = h->action.empty() ? Command::dashboard : Command::history;
    inv.history = *h;
  }
  check_output_paths(inv);
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
    case Command::history:
      return "history";
    case Command::dashboard:
      return "dashboard";
    case Command::merge:
      return "merge";
    case Command::floor:
      return "floor";
  }
  return "unknown";
}

ParseOutcome parse_cli(int argc, const char* const* argv) {
  try {
    return parse_or_throw(argc, argv);
  } catch (const UsageError& e) {
    return usage_error(e.line);
  } catch (const std::exception& e) {  // the standard library's: still one line, exit 4
    return usage_error(error_text(e));
  } catch (...) {
    return usage_error("unexpected error while reading the command line");
  }
}

}  // namespace rkv
