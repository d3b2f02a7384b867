// Committed H200 reports and doctored copies of them, for the gate's scenarios and calibration.
// Doctoring scales every stored statistic of a variant (pooled and per pass), so a "5 % slower
// fused kernel" is the committed run with each fused sample 5 % longer, noise and all; the
// speedup follows from the scaled times.
#pragma once

#include <map>
#include <ostream>
#include <stdexcept>
#include <string>

#include "committed_reports.h"
#include "report/report.h"

namespace rkv::testing {

// Each committed report read once per process.
inline const Report& committed_report(const std::string& relative) {
  static std::map<std::string, Report> cache;
  auto it = cache.find(relative);
  if (it == cache.end()) it = cache.emplace(relative, read_report(committed(relative))).first;
  return it->second;
}

inline void scale_summary(Summary& s, double f) {
  s.median *= f;
  s.q1 *= f;
  s.q3 *= f;
  s.min *= f;
  s.max *= f;
  s.mean *= f;
  s.stdev *= f;
}

// Every statistic of `variant` in `c` times `factor`; the speedup (pair / fused) follows.
inline void scale_variant(CaseResult& c, const std::string& variant, double factor) {
  bool found = false;
  for (VariantResult& v : c.variants) {
    if (v.variant != variant) continue;
    found = true;
    scale_summary(v.us, factor);
    for (Summary& p : v.passes)
      scale_summary(p, factor);
    for (std::vector<double>& pass : v.raw_us)  // bench --samples: the rank test reads these
      for (double& us : pass)
        us *= factor;
  }
  if (!found) throw std::runtime_error("no variant " + variant + " in " + c.id);
  if (!c.speedup || (variant != "fused" && variant != "pair")) return;
  const double s = variant == "fused" ? 1 / factor : factor;
  c.speedup->median *= s;
  c.speedup->lo *= s;
  c.speedup->hi *= s;
  for (double& m : c.speedup->pass_medians)
    m *= s;
}

inline CaseResult& case_named(Report& r, const std::string& id) {
  for (CaseResult& c : r.cases)
    if (c.id == id) return c;
  throw std::runtime_error("no case " + id);
}

// Every variant of every case: what a slower GPU (clocks, thermals) does to a run.
inline void scale_all_variants(Report& r, double factor) {
  for (CaseResult& c : r.cases)
    for (Variant v : all_variants())
      if (c.find_variant(v)) scale_variant(c, to_string(v), factor);
}

// GPU uuids for the scenarios. The committed reports predate device.uuid, so compare reads their
// GPU as unknown and applies the between-machine allowance; a scenario about one board stamps
// one uuid on both runs (the tight rule is then what it tests), one about two boards stamps two.
inline const std::string kGpuA = "GPU-a0a0a0a0-0000-4000-8000-00000000000a";
inline const std::string kGpuB = "GPU-b0b0b0b0-0000-4000-8000-00000000000b";

inline void stamp_same_gpu(Report& baseline, Report& current) {
  baseline.device.uuid = kGpuA;
  current.device.uuid = kGpuA;
}

inline void stamp_other_gpus(Report& baseline, Report& current) {
  baseline.device.uuid = kGpuA;
  current.device.uuid = kGpuB;
}

// The committed pairs of runs of one build, same config and settings (docs/ci.md lists them).
// `overlapping` marks pairs of two configs that share only some cases (decode.json's 90 bf16
// cases against the A/B config's 10, both dtypes): compared with --allow-missing. `one_gpu`
// marks pairs timed minutes apart in one device session, on one H200: the gate must pass them
// with the tight rule (their uuids stamped equal). The wave2 seed-table runs share every case
// but were each made on another H200: they carry the between-machine spread the machine
// allowance covers (scripts/between_machine.py), and must pass with it.
struct SameBuildPair {
  std::string first, second;
  bool overlapping = false;
  bool one_gpu = true;
};

inline void PrintTo(const SameBuildPair& p, std::ostream* os) {
  *os << p.first << " / " << p.second;
}

inline const std::vector<SameBuildPair>& same_build_pairs() {
  static const std::vector<SameBuildPair> pairs = {
      {"seed-table.json", "seed-table-run2.json"},
      {"experiments/v4-acb91e5-seed-table.json", "experiments/v4-acb91e5-seed-table-run2.json"},
      {"experiments/v1-e4aa524-seed-table.json", "experiments/v1-e4aa524-seed-table-run2.json"},
      {"decode.json", "experiments/ab-round4/exp-v5-decode.json", true},
      {"prefill.json", "experiments/ab-round4/exp-v5-prefill.json", true},
      {"experiments/ab-round1/base-decode.json", "experiments/ab-round1/base-decode-again.json"},
      {"experiments/ab-round1/base-prefill.json", "experiments/ab-round1/base-prefill-again.json"},
      {"experiments/ab-round2/base-decode.json", "experiments/ab-round2/base-decode-again.json"},
      {"experiments/ab-round2/base-prefill.json", "experiments/ab-round2/base-prefill-again.json"},
      {"experiments/ab-round2/base-prefill.json", "experiments/ab-round3/base-prefill.json"},
      {"experiments/ab-round2/base-prefill-again.json", "experiments/ab-round3/base-prefill.json"},
      {"experiments/ab-round4/base-decode.json", "experiments/ab-round4/base-decode-again.json"},
      {"experiments/ab-round4/base-prefill.json", "experiments/ab-round4/base-prefill-again.json"},
      {"wave2/seed-table-run1.json", "wave2/seed-table-run2.json", false, false},
      {"wave2/seed-table-run1.json", "wave2/seed-table-run3.json", false, false},
      {"wave2/seed-table-run2.json", "wave2/seed-table-run3.json", false, false},
      // One build on three more H200s, made after the allowance was fixed (out of sample).
      {"wave3/seed-table-fresh1.json", "wave3/seed-table-fresh2.json", false, false},
      {"wave3/seed-table-fresh1.json", "wave3/seed-table-fresh3.json", false, false},
      {"wave3/seed-table-fresh2.json", "wave3/seed-table-fresh3.json", false, false},
  };
  return pairs;
}

}  // namespace rkv::testing
