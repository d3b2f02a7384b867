// What `compare` refuses before it looks at a single timing: reports that cannot be compared
// case by case (a duplicate (id, mode): which copy would count?), a baseline that was interrupted,
// other timing settings (a 2 s timeout and a 0.5 s one give different medians for slow kernels),
// and another environment (GPU, SM count, driver, CUDA runtime). The first three are usage errors
// (exit 4), the environment has its own code (5) so CI can tell "the runner changed" from "the
// command is wrong". `force` turns the refusals other than duplicates into warnings. Clock and
// copy-bandwidth differences never refuse; they are warned about.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gate/compare.h"
#include "report/report.h"

namespace rkv {

struct Preflight {
  std::optional<CompareExit> refusal;  // usage or environment; empty when comparable
  std::string message;                 // why, one line (when refused)
  std::vector<std::string> warnings;
};

// `what` names the second report in messages ("current", "re-run").
Preflight preflight(const Report& baseline, const Report& other, const std::string& what,
                    bool force);

// The timing settings that make two runs' medians incomparable, as "key a vs b" (empty when
// none): the stopping rule, the launches per sample, the passes, and the producer's read where
// both timed a producer mode. Modes are not compared (cases match by mode). The history's trends
// read it too: a point timed with other settings than the previous one gets no verdict.
std::vector<std::string> timing_differences(const TimingOptions& baseline,
                                            const TimingOptions& other);

// The first (id, mode) that occurs twice, as "id (mode)"; empty when none does.
std::optional<std::string> first_duplicate(const Report& r);

}  // namespace rkv
