// The baseline a passing comparison leaves behind for the next one. It is made only when the
// comparison passed (exit 0; a regression listed in --accept counts as passed), so a regressed
// number never slips in unreviewed:
//   - a matched case takes the current run's numbers (the re-run's, when the re-run cleared it),
//   - a baseline case the current run lacks (--allow-missing) keeps the baseline's,
//   - a case new in the current run (passed) is added,
// and every case records which run measured it (provenance.h).
#pragma once

#include <optional>
#include <vector>

#include "gate/compare.h"
#include "gate/provenance.h"

namespace rkv {

struct RefreshedBaseline {
  Report report;
  std::vector<CaseProvenance> measured_by;  // one per case of `report`
};

// Empty unless `outcome` passed. `baseline_measured_by` is one entry per baseline case.
std::optional<RefreshedBaseline> refresh_baseline(
    const CompareOutcome& outcome, const Report& baseline,
    const std::vector<CaseProvenance>& baseline_measured_by, const Report& current,
    const Report* rerun);

}  // namespace rkv
