// Checks of a sweep as the user wrote it, before it runs. The planner quietly drops a combination
// that cannot run (a rot-dim larger than one of several head sizes is a sweep over head sizes);
// these catch the mistakes that leave a whole axis value or a whole product with nothing to run.
// Each returns one line without the flag or key it is about; the caller names that.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/sweep_axes.h"

namespace rkv {

// The most combinations one run may plan (the main product and every extra case together). The
// largest committed config plans a few hundred; a sweep of more than this is a typo
// (`--seed 0:4095` for `--seed 0,4095`) or a run of days, and planning it would take memory
// before anything ran, so it is refused before a single case is formed.
inline constexpr std::uint64_t kMaxPlannedCases = 100000;

// The number of combinations `axes` spans (the product of its axis sizes), saturating at
// UINT64_MAX; computed, never expanded.
std::uint64_t combination_count(const SweepAxes& axes);

// More than kMaxPlannedCases combinations in `axes` and `extra_cases` together: "17179869184
// combinations (tokens 4096 x block_size 1024 x seed 4096), more than the 100000 one run may plan;
// narrow an axis or split the sweep". Must be asked before plan_sweep or empty_sweep_problem.
std::optional<std::string> sweep_size_problem(const SweepAxes& axes,
                                              const std::vector<SweepAxes>& extra_cases = {});

// A numeric rot-dim larger than every head config of `axes` allows: "'256' is larger than every
// head size in the sweep (largest 128)".
std::optional<std::string> rot_dim_problem(const SweepAxes& axes);

// A product that yields no case at all: "no cases to run: every combination (2) was dropped,
// e.g. <id>: <why>".
std::optional<std::string> empty_sweep_problem(const SweepAxes& axes);

}  // namespace rkv
