// The planner: SweepAxes -> the ordered list of cases a run executes. It expands the cartesian
// product, resolves "full"/"half" rotary dims per head config, drops impossible combinations with
// a reason the user can read, and removes duplicates. `--dry-run` prints format_plan().
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plan/case_spec.h"
#include "plan/sweep_axes.h"
#include "plan/timing_options.h"

namespace rkv {

struct SweepPlan {
  std::vector<CaseSpec> cases;  // in run order, no two with the same id
  // (the case's id as far as it can be formed, why it was left out), in planning order
  std::vector<std::pair<std::string, std::string>> dropped;
};

// Why `c` cannot run, one line, or nullopt when it can. The planner drops such cases and
// `--case` refuses them, so both say the same words.
std::optional<std::string> case_problem(const CaseSpec& c);

// Order, outer to inner: dtype, cache_dtype, heads, style, rot_dim, layout, scale, slots,
// query_out, key_out, cos_sin, block_size, seed, tokens (innermost, so a table row's cases are
// adjacent). Each `extra_cases` entry is its own small product, planned after the main one.
// Expands every combination: callers ask sweep_size_problem (plan/sweep_checks.h) first.
SweepPlan plan_sweep(const SweepAxes& axes, const std::vector<SweepAxes>& extra_cases = {});

// Keeps the cases whose id contains `substring` (the dropped list is kept as it is).
void filter_plan(SweepPlan& plan, const std::string& substring);

// Keeps shard `index` (1-based) of `count`: the cases whose 0-based position p in the plan has
// p % count == index - 1. Deterministic, and every case is in exactly one shard of the N.
void shard_plan(SweepPlan& plan, int index, int count);

// For --dry-run: one line per case id, then "dropped <id>: <reason>" lines, then a count line,
// e.g. "32 cases (0 dropped)". With a timing rule per token range (`timing` not null and its
// modes_by_tokens set) each id is followed by a tab and its modes ("graph" or "cold,warm"), and
// a line per range counts its cases: "tokens 2048+: cold, 216 cases".
std::string format_plan(const SweepPlan& plan, const TimingOptions* timing = nullptr);

}  // namespace rkv
