// Inside the CLI: the flags of the sweep commands (validate, bench). CLI11 writes each flag's text
// into these structs by reference, so they live for the whole parse; apply_* then hands every
// value to the project's parsers and fills the CliInvocation.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace rkv {

struct SweepFlags {
  std::string config;
  std::vector<std::vector<std::string>> axis_text;  // indexed like axis_infos()
  std::vector<CLI::Option*> axis_opts;
  std::vector<std::string> cases;
  std::string filter;
  std::string shard;  // --shard K/N
  bool dry_run = false;
  std::vector<std::string> tags;  // --tag key=value (report/run_metadata.h)
  CLI::Option* config_opt = nullptr;
  CLI::Option* filter_opt = nullptr;
  CLI::Option* shard_opt = nullptr;
};

struct TimingFlags {
  std::vector<std::string> text;  // indexed like timing_fields()
  std::vector<CLI::Option*> opts;
  bool markdown = false, no_validate = false, samples = false;
  std::string json, csv;
  CLI::Option *json_opt = nullptr, *csv_opt = nullptr;
};

struct ValidateFlags {
  std::string json, dump, golden_sample, threads, plant_error;
  bool markdown = false, dump_all = false;
  CLI::Option *json_opt = nullptr, *dump_opt = nullptr, *golden_opt = nullptr,
              *threads_opt = nullptr, *plant_opt = nullptr;
};

void add_sweep_flags(CLI::App* sub, SweepFlags* f);
// `with_outputs`: validate's own outputs (--json, --dump, --markdown, --plant-error); bench has
// its own and takes only the validation settings.
void add_validate_flags(CLI::App* sub, ValidateFlags* f, bool with_outputs);
void add_timing_flags(CLI::App* sub, TimingFlags* f);

// In this order: the config file, then the flags over it, then the plan (--case, axes, --filter,
// then --shard; bench also checks that its timing rule covers every planned case).
void apply_sweep(const SweepFlags& f, CliInvocation& inv);
void apply_validate(const ValidateFlags& f, CliInvocation& inv);
void apply_timing(const TimingFlags& f, CliInvocation& inv);
void plan_cases(const SweepFlags& f, CliInvocation& inv);

// Parses a --case id and checks that the case can run; throws UsageError naming the id.
CaseSpec case_flag(const std::string& id);

}  // namespace rkv
