// Checks of a sweep as the user wrote it, before it runs. The planner quietly drops a combination
// that cannot run (a rot-dim larger than one of several head sizes is a sweep over head sizes);
// these catch the mistakes that leave a whole axis value or a whole product with nothing to run.
// Each returns one line without the flag or key it is about; the caller names that.
#pragma once

#include <optional>
#include <string>

#include "plan/sweep_axes.h"

namespace rkv {

// A numeric rot-dim larger than every head config of `axes` allows: "'256' is larger than every
// head size in the sweep (largest 128)".
std::optional<std::string> rot_dim_problem(const SweepAxes& axes);

// A product that yields no case at all: "no cases to run: every combination (2) was dropped,
// e.g. <id>: <why>".
std::optional<std::string> empty_sweep_problem(const SweepAxes& axes);

}  // namespace rkv
