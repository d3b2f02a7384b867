// `compare`: the perf gate. It judges a current bench report against a baseline report, case by
// case (matched by id and timing mode), and its exit code is the contract CI relies on:
//   0 pass
//   1 regression: a gated quantity is slower (gate_rule.h), or a baseline case is missing from
//     the current run (unless allow_missing)
//   2 a current case, matched or new, did not pass validation (incorrect, failed, not_supported,
//     skipped): a broken run never passes
//   3 inconclusive: nothing failed, but the current run was interrupted (complete: false)
//   4 usage: a duplicate (id, mode) in either report, an incomplete baseline or other timing
//     settings (unless forced), no case in common, an --accept id in neither report
//   5 environment: another GPU, SM count, driver or CUDA runtime (unless forced)
// 4 and 5 are decided before any case is compared; then 2 outranks 1, and 1 outranks 3.
//
// Same GPU or another: when the baseline was measured on this very board (both reports carry a
// device uuid, and they are equal), the rule is the size-and-noise rule alone; otherwise each
// case's threshold is at least the machine allowance of its token class (gate_rule.h). The
// header says which and why; `--machine-allowance on|off` overrides the uuids
// (machine_allowance.h).
//
// With a re-run (`rerun`: the flagged cases timed once more, scripts/ci-gate.sh), a case is a
// regression only when the re-run is slower too; otherwise it is `unconfirmed` and passes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/gate_rule.h"
#include "gate/machine_allowance.h"
#include "report/report.h"

namespace rkv {

enum class CompareExit : int {
  pass = 0,
  regression = 1,
  not_passed = 2,
  inconclusive = 3,
  usage = 4,
  environment = 5,
};

// What may be gated (--gate): each variant's own time, or the in-run speedup.
enum class Gated { fused, pair, speedup };
std::string to_string(Gated g);
std::optional<Gated> parse_gated(const std::string& text);

struct CompareOptions {
  std::vector<Gated> gate{Gated::fused};
  RuleParams rule;
  MachineAllowance machine_allowance = MachineAllowance::by_uuid;
  bool force = false;          // compare across devices, timing settings, an incomplete baseline
  bool allow_missing = false;  // baseline cases absent from the current run are not a regression
  std::vector<std::string> accept;  // case ids whose regression is accepted (baseline refresh)
};

enum class Verdict {
  pass,
  win,          // a gated quantity is faster, with evidence
  noted,        // slower by the median, without the rest of the evidence: a warning
  unconfirmed,  // slower in the current run, not in its re-run
  accepted,     // slower, and listed in --accept
  regression,
  missing,     // in the baseline, not in the current run
  added,       // in the current run only, passed
  not_passed,  // the current case did not pass validation
};
std::string to_string(Verdict v);
bool fails_gate(Verdict v, bool allow_missing);  // what makes exit 1 or 2

struct GateResult {
  Gated what = Gated::fused;
  double baseline = 0, current = 0;  // median µs, or the speedup
  Judgement judgement;
};

struct CaseComparison {
  std::string id, mode;
  Verdict verdict = Verdict::pass;
  std::vector<GateResult> gates;        // one per gated quantity, in --gate order
  std::vector<GateResult> rerun_gates;  // the re-run's, when this case was re-run
  std::vector<std::string> notes;       // why, one short sentence each
  double machine_allowance = 0;         // the least T of a kernel time; 0 on one GPU
};

// The run a report came from, for headers.
struct RunInfo {
  std::string git_revision, created_utc, tool_version;
  DeviceInfo device;
};
RunInfo run_info(const Report& r);

struct CompareOutcome {
  CompareExit exit = CompareExit::pass;
  int exit_code() const { return static_cast<int>(exit); }
  std::string message;                // one line: the overall verdict, or why nothing was compared
  std::vector<std::string> warnings;  // clocks, forced refusals, noted cases: one line each
  RunInfo baseline, current;
  std::vector<Gated> gate;
  RuleParams rule;
  MachineAllowance machine_allowance_mode = MachineAllowance::by_uuid;
  std::optional<bool> same_gpu;           // baseline and current: same_gpu() of their devices
  bool machine_allowance_applies = true;  // what the mode made of same_gpu
  std::string machine_allowance_why;      // one line for the header: which GPU, and so what
  bool allow_missing = false;
  bool rerun = false;
  std::vector<CaseComparison> cases;  // baseline order, then the cases only in the current run
  int count(Verdict v) const;
  // Reproducibility, not gated: of the matched cases with a speedup in both runs, how many have
  // each run's median inside the other run's interval (what a re-run of one build should show).
  int speedups_compared = 0, speedups_within_intervals = 0;
};

// `rerun`, when given, holds the flagged cases timed once more (same device and settings).
CompareOutcome compare_reports(const Report& baseline, const Report& current,
                               const CompareOptions& options, const Report* rerun = nullptr);

}  // namespace rkv
