// rope-kv-bench: parse the command line, run one command, turn every failure into one line and an
// exit code (0 pass, 1 regression, 2 validation mismatch, 3 ambiguous or inconclusive, 4 usage,
// 5 environment: docs/cli.md and docs/ci.md).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/error_text.h"
#include "floor/floor_command.h"
#include "gate/compare_command.h"
#include "report/axes_list.h"
#include "report/report.h"
#include "report/report_merge.h"
#include "report/tables.h"
#include "run/sweep_runner.h"

namespace rkv {
namespace {

int run_report(const CliInvocation& inv) {
  const Report r = read_report(inv.report_input);
  if (inv.report_format == "csv") {
    fmt::print("{}", render_csv(r));
    return 0;
  }
  const TableFormat f = inv.report_format == "text" ? TableFormat::text : TableFormat::markdown;
  const bool all_passed = std::all_of(r.cases.begin(), r.cases.end(), [](const CaseResult& c) {
    return c.validation == Disposition::passed;
  });
  if (r.command == "bench") fmt::print("{}", render_speedup_tables(r, f));
  // A bench report's validation table is news only when something did not pass.
  if (r.command != "bench" || !all_passed) fmt::print("{}", render_validation_table(r, f));
  return 0;
}

// Refusals (inputs of different runs, a case or shard twice, missing shards) are usage errors:
// one line, exit 4, and nothing written.
int run_merge(const CliInvocation& inv) {
  std::vector<MergeInput> inputs;
  for (const std::string& path : inv.merge_inputs)
    inputs.push_back({path, read_report(path)});
  const Report merged = merge_reports(inputs, inv.allow_partial);
  write_report_atomically(merged, inv.json_out);
  fmt::print("merged {} reports (shards {} of {}): {} rows{}\n", inputs.size(),
             merged.run.shard.indices.size(), merged.run.shard.count, merged.cases.size(),
             merged.complete ? "" : ", incomplete");
  return 0;
}

int run_compare(const CliInvocation& inv) {
  return run_compare_command(inv.compare, std::cout);
}

int dispatch(const CliInvocation& inv) {
  if (inv.dry_run) {
    fmt::print("{}", format_plan(inv.plan, inv.command == Command::bench ? &inv.timing : nullptr));
    if (const ShardInfo& s = inv.run_metadata.shard; s.sharded())
      fmt::print("shard {}/{}: {} of {} planned cases\n", s.indices.front(), s.count,
                 inv.plan.cases.size(), s.planned_cases);
    return 0;
  }
  switch (inv.command) {
    case Command::validate:
      return run_validate(inv);
    case Command::bench:
      return run_bench(inv);
    case Command::profile:
      return run_profile(inv);
    case Command::compare:
      return run_compare(inv);
    case Command::report:
      return run_report(inv);
    case Command::list:
      fmt::print("{}", list_text());
      return 0;
    case Command::history:
      return run_history(inv.history);
    case Command::dashboard:
      return run_dashboard(inv.history);
    case Command::merge:
      return run_merge(inv);
    case Command::floor:
      return run_floor_command(inv.floor, inv.json_out, inv.argv);
  }
  return kExitUsage;
}

}  // namespace
}  // namespace rkv

int main(int argc, char** argv) {
  const rkv::ParseOutcome parsed = rkv::parse_cli(argc, argv);
  int code = parsed.exit_code;
  if (!parsed.invocation) {
    std::fputs(parsed.message.c_str(), parsed.exit_code == 0 ? stdout : stderr);
  } else {
    try {
      code = rkv::dispatch(*parsed.invocation);
    } catch (const std::exception& e) {
      // A failed print to stdout surfaces as fmt's system_error; say what it was about.
      const std::string line = std::ferror(stdout) ? rkv::stdout_problem() : rkv::error_text(e);
      std::fprintf(stderr, "rope-kv-bench: error: %s\n", line.c_str());
      return rkv::kExitUsage;
    } catch (...) {
      std::fprintf(stderr, "rope-kv-bench: error: internal error (an unknown exception)\n");
      return rkv::kExitUsage;
    }
  }
  // Everything printed must have arrived: `report r.json > /dev/full` is a failure.
  if (const std::string problem = rkv::stdout_problem(); !problem.empty()) {
    std::fprintf(stderr, "rope-kv-bench: error: %s\n", problem.c_str());
    return rkv::kExitUsage;
  }
  return code;
}
