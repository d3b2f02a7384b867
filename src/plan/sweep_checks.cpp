#include "plan/sweep_checks.h"

#include <algorithm>

#include "plan/sweep_plan.h"
#include "text/quote.h"

namespace rkv {
namespace {

// The largest rotary dim any head config of `axes` allows.
int largest_rot_dim(const SweepAxes& axes) {
  int largest = 0;
  for (const HeadConfig& h : axes.heads)
    largest = std::max(largest, h.mla ? 64 : h.head_size);
  return largest;
}

}  // namespace

std::optional<std::string> rot_dim_problem(const SweepAxes& axes) {
  const int largest = largest_rot_dim(axes);
  for (const RotDim& r : axes.rot_dim)
    if (r.kind == RotDim::Kind::value && r.value > largest)
      return quote(r.name()) + " is larger than every head size in the sweep (" +
             (largest == 64 && axes.heads.size() == 1 && axes.heads[0].mla
                  ? "MLA rotates 64 dims"
                  : "largest " + std::to_string(largest)) +
             ")";
  return std::nullopt;
}

std::optional<std::string> empty_sweep_problem(const SweepAxes& axes) {
  const SweepPlan p = plan_sweep(axes);
  if (!p.cases.empty()) return std::nullopt;
  std::string line =
      "no cases to run: every combination (" + std::to_string(p.dropped.size()) + ") was dropped";
  if (!p.dropped.empty()) line += ", e.g. " + p.dropped[0].first + ": " + p.dropped[0].second;
  return line;
}

}  // namespace rkv
