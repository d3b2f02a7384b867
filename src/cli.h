// The command line: `rope-kv-bench validate | bench | compare | profile | report | list`.
//
// parse_cli() turns argv into a CliInvocation that main() dispatches on, with the sweep already
// planned (config file, flags laid over it, --case / --filter applied). It never throws and never
// prints: help text and errors come back as text with the exit code to use, and every error is
// one line, "rope-kv-bench: error: <argument> <value>: <why>", exit code 4 (docs/cli.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sweep_axes.h"
#include "sweep_plan.h"
#include "timing_options.h"

namespace rkv {

inline constexpr int kExitUsage = 4;  // usage or environment error (benchmarking.md's contract)

enum class Command { validate, bench, compare, profile, report, list };
std::string to_string(Command c);

struct CliInvocation {
  Command command = Command::list;
  std::vector<std::string> argv;  // as given, for the report's argv field

  // ---- the sweep: validate, bench (profile: the one --case)
  std::string config_path;  // --config, "" when none
  std::string config_name;  // the config's "name"
  SweepAxes axes;           // the config's axes with each axis flag given replacing its axis
  std::vector<SweepAxes> extra_cases;  // the config's extra_cases (flags do not touch them)
  std::vector<std::string> case_ids;   // --case, as given
  std::string filter;                  // --filter
  SweepPlan plan;  // the cases to run, in order; never empty when parse_cli succeeds
  bool dry_run = false;

  // ---- bench
  TimingOptions timing;        // the config's "timing", then the timing flags
  bool validate_first = true;  // --no-validate clears it
  bool markdown = false;       // --markdown: print the tables as Markdown (also validate, compare)
  std::string csv_out;         // --csv FILE
  std::string json_out;        // --json FILE (bench, validate)

  // ---- validate (bench validates the same way before timing)
  std::string dump_dir;  // --dump DIR: inputs and outputs of mismatching cases
  // Cases with more tokens than this are checked against the golden model on a sample of this
  // many tokens (fused vs pair is always compared whole); 0 = always the whole case.
  int golden_sample_tokens = 2048;
  int threads = 0;  // golden-model host threads; 0 = std::thread::hardware_concurrency()
  long long plant_error_at = -1;  // --plant-error BYTE: the validator's self-test (validator.h)

  // ---- profile (plan.cases holds the parsed case)
  std::string case_id;
  int launches = 10;
  std::vector<std::string> variants{"fused", "pair"};  // of fused, pair, rope, cache_write

  // ---- compare
  std::string baseline_path, current_path;
  bool force = false;                  // compare across device fingerprints
  double max_slowdown_us = 0.2;        // a slowdown must also exceed this to count
  double speedup_tolerance = 0.05;     // fraction (the flag takes percent)
  std::string refreshed_baseline_out;  // --refreshed-baseline FILE, "" = not written

  // ---- report
  std::string report_input;
  std::string report_format = "markdown";  // text, markdown, csv
};

struct ParseOutcome {
  std::optional<CliInvocation> invocation;  // set when a command should run
  // When `invocation` is empty: 0 after --help (print `message` to stdout), kExitUsage after an
  // error (print `message`, one line, to stderr).
  int exit_code = 0;
  std::string message;  // ends with '\n'
};

ParseOutcome parse_cli(int argc, const char* const* argv);

// What `rope-kv-bench list` prints: every axis and timing setting with its flag, config key,
// accepted values and default, built from the same tables the parsers use.
std::string list_text();

}  // namespace rkv
