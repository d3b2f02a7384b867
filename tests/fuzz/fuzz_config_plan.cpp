// libFuzzer target: a config file's text through the config reader and the planner. Any text
// must end in a config or one printable line naming the problem, and a config must plan into
// cases that can run and whose ids read back as themselves, within the size bound.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

#include "fuzz_check.h"
#include "plan/sweep_checks.h"
#include "plan/sweep_config.h"
#include "plan/sweep_plan.h"

namespace {

// Planning is linear in the cases (a few microseconds each, more under the sanitizers); sweeps
// up to this many are planned here, so every input stays far within libFuzzer's 1 s limit. The
// bound itself (kMaxPlannedCases) is checked on every input, large ones included.
constexpr std::uint64_t kPlannedHere = 20000;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rkv;
  const std::string text(reinterpret_cast<const char*>(data), size);
  SweepConfig cfg;
  if (auto err = parse_sweep_config(text, "fuzz.json", &cfg)) {
    fuzz_check_one_line(*err);
    return 0;
  }
  std::uint64_t total = combination_count(cfg.axes);
  for (const SweepAxes& extra : cfg.extra_cases)
    total += combination_count(extra);
  const auto too_large = sweep_size_problem(cfg.axes, cfg.extra_cases);
  FUZZ_CHECK(too_large.has_value() == (total > kMaxPlannedCases));
  if (too_large) {
    fuzz_check_one_line(*too_large);
    return 0;
  }
  if (total > kPlannedHere) return 0;
  if (auto err = rot_dim_problem(cfg.axes)) fuzz_check_one_line(*err);
  if (auto err = empty_sweep_problem(cfg.axes)) fuzz_check_one_line(*err);
  const SweepPlan plan = plan_sweep(cfg.axes, cfg.extra_cases);
  FUZZ_CHECK(plan.cases.size() + plan.dropped.size() <= total);
  std::unordered_set<std::string> ids;
  for (const CaseSpec& c : plan.cases) {
    const std::string id = c.id();
    FUZZ_CHECK(ids.insert(id).second);  // no case twice
    FUZZ_CHECK(!case_problem(c).has_value());
    std::string why;
    const auto back = CaseSpec::parse_id(id, &why);
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->id() == id);
  }
  for (const auto& [what, why] : plan.dropped)
    fuzz_check_one_line(why);
  (void)format_plan(plan);
  return 0;
}
