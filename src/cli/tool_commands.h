// Inside the CLI: the flags of profile, compare, report, merge and floor, each added to its
// subcommand and applied to the CliInvocation after CLI11 has split argv (see sweep_commands.h for
// the why).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace rkv {

struct ProfileFlags {
  std::string case_id, launches, variants;
  CLI::Option *launches_opt = nullptr, *variants_opt = nullptr;
};

struct CompareFlags {
  std::string baseline, current, gate, min_slowdown, max_slowdown, tolerance, machine_allowance,
      refreshed, rerun, json, markdown;
  std::vector<std::string> accept;
  bool force = false, allow_missing = false, all = false, github = false;
  CLI::Option *gate_opt = nullptr, *min_slowdown_opt = nullptr, *slowdown_opt = nullptr,
              *tolerance_opt = nullptr, *machine_allowance_opt = nullptr, *refreshed_opt = nullptr,
              *rerun_opt = nullptr, *json_opt = nullptr, *markdown_opt = nullptr;
};

struct ReportFlags {
  std::string input, format;
  CLI::Option* format_opt = nullptr;
};

struct FloorFlags {
  std::string patterns, moved_mib, json;
  bool in_place = false;
  CLI::Option *patterns_opt = nullptr, *moved_mib_opt = nullptr, *json_opt = nullptr;
};

struct MergeFlags {
  std::string json;
  std::vector<std::string> inputs;
  bool allow_partial = false;
};

void add_profile_flags(CLI::App* sub, ProfileFlags* f);
void add_merge_flags(CLI::App* sub, MergeFlags* f);
void add_compare_flags(CLI::App* sub, CompareFlags* f);
void add_report_flags(CLI::App* sub, ReportFlags* f);
void add_floor_flags(CLI::App* sub, FloorFlags* f);

void apply_profile(const ProfileFlags& f, CliInvocation& inv);
void apply_compare(const CompareFlags& f, CliInvocation& inv);
void apply_report(const ReportFlags& f, CliInvocation& inv);
void apply_merge(const MergeFlags& f, CliInvocation& inv);
void apply_floor(const FloorFlags& f, CliInvocation& inv);

}  // namespace rkv
