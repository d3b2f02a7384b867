// The command line: `rope-kv-bench validate | bench | compare | profile | report | list | merge |
// floor` (and history, dashboard).
//
// parse_cli() turns argv into a CliInvocation that main() dispatches on, with the sweep already
// planned (config file, flags laid over it, --case / --filter applied). It never throws and never
// prints: help text and errors come back as text with the exit code to use, and every error is
// one line, "rope-kv-bench: error: <argument> <value>: <why>", exit code 4 (docs/cli.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/history_commands.h"
#include "floor/floor_request.h"
#include "gate/compare_command.h"
#include "plan/sweep_axes.h"
#include "report/exit_codes.h"
#include "run/run_request.h"

namespace rkv {

enum class Command {
  validate,
  bench,
  compare,
  profile,
  report,
  list,
  history,
  dashboard,
  merge,
  floor
};
std::string to_string(Command c);

// What parse_cli hands to main(): the command, the run request of the GPU commands (the sweep
// and its outputs, run/run_request.h) and the fields of compare and report. It extends
// RunRequest so that the run layer takes exactly what it needs and never sees the CLI.
struct CliInvocation : RunRequest {
  Command command = Command::list;

  // ---- how the sweep was chosen (planned into `plan`)
  SweepAxes axes;  // the config's axes with each axis flag given replacing its axis
  std::vector<SweepAxes> extra_cases;  // the config's extra_cases (flags do not touch them)
  std::vector<std::string> case_ids;   // --case, as given
  std::string filter;                  // --filter
  bool dry_run = false;

  // ---- profile (plan.cases holds the parsed case)
  std::string case_id;

  // ---- compare (the gate's own request: paths, rule options, outputs)
  CompareRequest compare;

  // ---- report
  std::string report_input;
  std::string report_format = "markdown";  // text, markdown, csv

  HistoryRequest history;  // history, dashboard (cli/history_commands.h)

  // ---- merge (its --json is json_out)
  std::vector<std::string> merge_inputs;
  bool allow_partial = false;

  // ---- floor (its --json is json_out)
  FloorRequest floor;
};

struct ParseOutcome {
  std::optional<CliInvocation> invocation;  // set when a command should run
  // When `invocation` is empty: 0 after --help (print `message` to stdout), kExitUsage after an
  // error (print `message`, one line, to stderr).
  int exit_code = 0;
  std::string message;  // ends with '\n'
};

ParseOutcome parse_cli(int argc, const char* const* argv);

}  // namespace rkv
