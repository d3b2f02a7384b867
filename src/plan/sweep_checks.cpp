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

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

}  // namespace

std::uint64_t combination_count(const SweepAxes& axes) {
  std::uint64_t n = 1;
  for (const AxisInfo& a : axis_infos())
    n = saturating_product(n, axis_value_names(axes, a.axis).size());
  return n;
}

std::optional<std::string> sweep_size_problem(const SweepAxes& axes,
                                              const std::vector<SweepAxes>& extra_cases) {
  std::uint64_t total = combination_count(axes);
  for (const SweepAxes& extra : extra_cases)
    total = total > UINT64_MAX - combination_count(extra) ? UINT64_MAX
                                                          : total + combination_count(extra);
  if (total <= kMaxPlannedCases) return std::nullopt;
  std::string factors;  // the main product's axes of more than one value
  for (const AxisInfo& a : axis_infos()) {
    const std::size_t n = axis_value_names(axes, a.axis).size();
    if (n > 1)
      factors += (factors.empty() ? "" : " x ") + std::string(a.key) + " " + std::to_string(n);
  }
  const std::string count = total == UINT64_MAX ? "more than 2^64" : std::to_string(total);
  return count + " combinations (" + (factors.empty() ? "1" : factors) +
         (extra_cases.empty() ? ""
                              : ", with " + std::to_string(extra_cases.size()) + " extra cases") +
         "), more than the " + std::to_string(kMaxPlannedCases) +
         " one run may plan; narrow an axis or split the sweep";
}

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
