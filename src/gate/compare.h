// `compare`: gate a run against a baseline report, for CI. The exit code is the contract:
//   0 pass, 1 regression, 2 validation mismatch, 3 ambiguous, 4 usage or environment error.
// When several apply the most serious wins: 4, then 2, then 1, then 3.
//
// Cases are matched by id and timing mode. Per matched case:
//   validation  the current case is `incorrect` or `failed`                      -> mismatch (2)
//   primary     the in-run speedup, which is robust to a slower or faster GPU day because pair and
//               fused were sampled interleaved on the same clock:
//               the current interval [lo, hi] entirely below baseline median * (1 - tolerance)
//                 -> regression; median below it but the interval reaching it -> ambiguous;
//               lo above baseline median * (1 + tolerance) -> win.
//               With min_speedup > 0 the same test against that absolute floor.
//   secondary   the fused kernel's own time: slower only when the interquartile ranges are apart
//               (current q1 > baseline q3) AND the medians differ by more than max_slowdown_us
//               -> regression; slower by more than the floor with overlapping ranges -> ambiguous;
//               a difference under the floor is noise at these sizes -> pass.
// Cases only in the baseline (a smoke run against a full baseline) or only in the current run
// are listed, not gated, but a current report marked incomplete (interrupted) is at best
// ambiguous. A current case that was skipped or not supported while the baseline
// measured it is ambiguous: something that used to be measured no longer is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/report.h"
#include "report/tables.h"

namespace rkv {

enum class CompareExit : int {
  pass = 0,
  regression = 1,
  validation_mismatch = 2,
  ambiguous = 3,
  usage = 4,
};

struct CompareOptions {
  bool force = false;               // compare across device fingerprints anyway
  double speedup_tolerance = 0.05;  // fraction of the baseline's median speedup
  double min_speedup = 0;           // absolute floor for every case's speedup; 0 = off
  double max_slowdown_us = 0.5;     // the fused-time gate ignores differences up to this
};

enum class Verdict {
  pass,
  win,
  ambiguous,
  regression,
  validation_mismatch,
  only_baseline,
  only_current
};
std::string to_string(Verdict v);

struct CaseComparison {
  std::string id, mode;
  Verdict verdict = Verdict::pass;
  std::vector<std::string> notes;  // why, one short sentence per gate that said something
  std::optional<SpeedupEstimate> baseline_speedup, current_speedup;
  std::optional<Summary> baseline_fused, current_fused;
};

struct CompareOutcome {
  CompareExit exit = CompareExit::pass;
  int exit_code() const { return static_cast<int>(exit); }
  std::string message;  // one line: the overall verdict, or why nothing was compared
  bool forced_across_devices = false;
  std::vector<CaseComparison> cases;  // baseline order, then cases only in the current run
  int passed = 0, wins = 0, ambiguous = 0, regressions = 0, mismatches = 0;
  int only_baseline = 0, only_current = 0;
  // Reproducibility, not gated: of the matched cases with a speedup in both runs, how many have
  // each run's median inside the other run's interval (what a re-run of one build should show).
  int speedups_compared = 0, speedups_within_intervals = 0;
  // The baseline with each matched case replaced by the current one, for review; a current case
  // that failed validation is not taken. Absent when exit is `usage`.
  std::optional<Report> refreshed_baseline;
};

CompareOutcome compare_reports(const Report& baseline, const Report& current,
                               const CompareOptions& options);

// The outcome as text or markdown: the header line, the devices, a table of every case that did
// not simply pass (all cases when `all_cases`), and the counts.
std::string render_comparison(const CompareOutcome& outcome, TableFormat format,
                              bool all_cases = false);

}  // namespace rkv
