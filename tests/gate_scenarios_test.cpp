// The perf gate against the committed H200 reports and doctored copies of them: each scenario
// builds a baseline and a current run, compares them and asserts the exit code and the case the
// gate names (and its verdict). One CTest test per scenario.
#include <gtest/gtest.h>

#include <functional>

#include "gate/compare.h"
#include "gate_doctor.h"

namespace rkv {
namespace {

using testing::case_named;
using testing::committed_report;
using testing::scale_all_variants;
using testing::scale_variant;
using testing::stamp_other_gpus;
using testing::stamp_same_gpu;

const char* const kSeed = "seed-table.json";
const char* const kSeed2 = "seed-table-run2.json";
const std::string kN1 = "bf16|auto|32x8x128|neox|nhd|N=1";
const std::string kN8 = "fp16|fp8_e4m3|32x32x128|neox|nhd|N=8";
const std::string kN128 = "bf16|auto|32x8x128|neox|nhd|N=128";
const std::string kN2048 = "bf16|auto|32x8x128|neox|nhd|N=2048";
const std::string kN16k = "bf16|auto|32x8x128|neox|nhd|N=16384";
const std::string kN1x32 = "bf16|auto|32x32x128|neox|nhd|N=1";
// One build's seed table on three H200s (results/h200/wave2).
const char* const kWave2Run1 = "wave2/seed-table-run1.json";
const char* const kWave2Run2 = "wave2/seed-table-run2.json";
const char* const kWave2Run3 = "wave2/seed-table-run3.json";

struct Scene {
  Report baseline, current;
  std::optional<Report> rerun;
  CompareOptions options;
};

struct Scenario {
  std::string name;
  std::function<Scene()> make;
  int exit;
  std::string id;  // the case the gate must name; "" = none in particular
  std::optional<Verdict> verdict;
  bool only_named_fails = true;  // no other case may fail the gate
};

// The seed table and its re-run (same build, one device session), stamped as measured on one GPU
// (the tight rule), the re-run doctored by `doctor`.
Scene seed_pair(const std::function<void(Report&)>& doctor = {}) {
  Scene s{committed_report(kSeed), committed_report(kSeed2), std::nullopt, {}};
  stamp_same_gpu(s.baseline, s.current);
  if (doctor) doctor(s.current);
  return s;
}

// Two wave2 runs (one build, two H200s) stamped with their two GPUs, `current` doctored.
Scene wave2_pair(const char* baseline, const char* current,
                 const std::function<void(Report&)>& doctor = {}) {
  Scene s{committed_report(baseline), committed_report(current), std::nullopt, {}};
  stamp_other_gpus(s.baseline, s.current);
  if (doctor) doctor(s.current);
  return s;
}

// One wave2 run against itself as if the current run came from another GPU whose every fused
// time at `tokens` is `f` times the baseline's: a machine-like shift, exact.
std::function<Scene()> other_gpu_shift(std::int64_t tokens, double f) {
  return [=] {
    Scene s{committed_report(kWave2Run1), committed_report(kWave2Run1), std::nullopt, {}};
    stamp_other_gpus(s.baseline, s.current);
    for (CaseResult& c : s.current.cases)
      if (c.spec.tokens == tokens) scale_variant(c, "fused", f);
    return s;
  };
}

std::function<Scene()> with_allowance(std::function<Scene()> make, MachineAllowance m) {
  return [=] {
    Scene s = make();
    s.options.machine_allowance = m;
    return s;
  };
}

std::function<Scene()> fused_by(const std::string& id, double factor) {
  return [=] {
    return seed_pair([&](Report& r) { scale_variant(case_named(r, id), "fused", factor); });
  };
}

std::function<Scene()> with_gate(std::function<Scene()> make, std::vector<Gated> gate) {
  return [=] {
    Scene s = make();
    s.options.gate = gate;
    return s;
  };
}

std::function<Scene()> forced(std::function<Scene()> make) {
  return [=] {
    Scene s = make();
    s.options.force = true;
    return s;
  };
}

std::function<Scene()> allow_missing(std::function<Scene()> make) {
  return [=] {
    Scene s = make();
    s.options.allow_missing = true;
    return s;
  };
}

std::vector<Scenario> scenarios() {
  std::vector<Scenario> v;
  // ---- the fused kernel slower or faster on the same GPU (the seed table's re-run, one uuid),
  // at decode and prefill sizes: the tight rule, no machine allowance
  struct Size {
    const char* tag;
    std::string id;
  };
  for (const Size& n : {Size{"N1", kN1}, Size{"N128", kN128}, Size{"N2048", kN2048}}) {
    const std::string t = n.tag;
    // 2 %: under the floor (2 % + 0.03 us / median = 3.3-3.5 % at N=1 and N=128); at N=2048
    // (10 us, 0.2 % noise) the floor is 2.3 % and the re-run's own +0.45 % carries it over.
    const bool large = n.id == kN2048;
    v.push_back({"Fused2PctSlower" + t, fused_by(n.id, 1.02), large ? 1 : 0, n.id,
                 large ? std::optional<Verdict>(Verdict::regression) : std::nullopt});
    v.push_back({"Fused5PctSlower" + t, fused_by(n.id, 1.05), 1, n.id, Verdict::regression});
    v.push_back({"Fused10PctSlower" + t, fused_by(n.id, 1.10), 1, n.id, Verdict::regression});
    v.push_back({"Fused2PctFaster" + t, fused_by(n.id, 0.98), 0, n.id, std::nullopt});
    v.push_back({"Fused5PctFaster" + t, fused_by(n.id, 0.95), 0, n.id, Verdict::win});
    v.push_back({"Fused10PctFaster" + t, fused_by(n.id, 0.90), 0, n.id, Verdict::win});
  }
  v.push_back({"Fused10PctSlowerN8Fp8", fused_by(kN8, 1.10), 1, kN8, Verdict::regression});
  v.push_back({"Fused5PctSlowerColdN16384",
               [] {
                 Scene s{committed_report("prefill.json"),
                         committed_report("experiments/ab-round4/exp-v5-prefill.json"),
                         std::nullopt,
                         {}};
                 stamp_same_gpu(s.baseline, s.current);
                 s.options.allow_missing = true;
                 scale_variant(case_named(s.current, kN16k), "fused", 1.05);
                 return s;
               },
               1, kN16k, Verdict::regression});

  // ---- the pair alone changes: the fused gate does not move; --gate pair / speedup see it
  auto pair_by = [](double f) {
    return [f] {
      return seed_pair([&](Report& r) { scale_variant(case_named(r, kN128), "pair", f); });
    };
  };
  v.push_back({"PairOnly20PctSlowerPasses", pair_by(1.20), 0, kN128, Verdict::pass});
  v.push_back({"PairOnly20PctFasterPasses", pair_by(0.80), 0, kN128, Verdict::pass});
  v.push_back({"PairOnly20PctSlowerGatedPair",
               with_gate(pair_by(1.20), {Gated::fused, Gated::pair}), 1, kN128,
               Verdict::regression});
  v.push_back({"PairOnly20PctFasterGatedSpeedup", with_gate(pair_by(0.80), {Gated::speedup}), 1,
               kN128, Verdict::regression});
  // The case: fused 8 % slower at N=1 while the pair slows 20 %, on the same GPU. The
  // pair's change does not hide the fused one.
  v.push_back({"Fused8PctSlowerPair20PctSlower",
               [] {
                 return seed_pair([](Report& r) {
                   scale_variant(case_named(r, kN1), "fused", 1.08);
                   scale_variant(case_named(r, kN1), "pair", 1.20);
                 });
               },
               1, kN1, Verdict::regression});

  // ---- another GPU (uuids differ) or an unknown one (no uuid): the machine allowance, 8 % at
  // N <= 8, 5.5 % at 9..1024, 2 % above. The wave2 seed-table runs are one build on three
  // H200s: machine 3 ran every N=1 fused kernel 3.5-7.1 % slower than machines 1 and 2, and
  // some N=128 cases up to ~5 % (the SameBuild pairs pass all of that).
  v.push_back({"OtherGpuFused10PctSlowerN1",
               [] {
                 return wave2_pair(kWave2Run1, kWave2Run2, [](Report& r) {
                   scale_variant(case_named(r, kN1), "fused", 1.10);
                 });
               },
               1, kN1, Verdict::regression});
  v.push_back({"UnknownGpuFused10PctSlowerN1",
               [] {
                 Scene s{committed_report(kSeed), committed_report(kSeed2), std::nullopt, {}};
                 scale_variant(case_named(s.current, kN1), "fused", 1.10);
                 return s;
               },
               1, kN1, Verdict::regression});
  // A machine-like shift of every N=1 fused time: 7 % passes, 9 % fails every N=1 case.
  // Between 8 % and about 9 % is the grey zone: T is 8 %, and the fastest launches (6 %) and
  // the evidence must agree as well.
  v.push_back({"OtherGpuShift7PctEveryN1Passes", other_gpu_shift(1, 1.07), 0, kN1, Verdict::pass});
  v.push_back({"OtherGpuShift9PctEveryN1Fails", other_gpu_shift(1, 1.09), 1, kN1,
               Verdict::regression, false});
  // The documented miss across GPUs: 5 % at N=128 is inside the mid allowance (5.5 %).
  v.push_back(
      {"OtherGpuShift5PctEveryN128Passes", other_gpu_shift(128, 1.05), 0, kN128, Verdict::pass});
  v.push_back({"UnknownGpuFused5PctSlowerN128Passes",
               [] {
                 Scene s{committed_report(kSeed), committed_report(kSeed2), std::nullopt, {}};
                 scale_variant(case_named(s.current, kN128), "fused", 1.05);
                 return s;
               },
               0, kN128, Verdict::pass});
  // Above 1024 tokens the allowance (2 %) is under the floor: 5 % is caught on another GPU.
  v.push_back({"OtherGpuFused5PctSlowerN2048",
               [] {
                 return wave2_pair(kWave2Run1, kWave2Run2, [](Report& r) {
                   scale_variant(case_named(r, kN2048), "fused", 1.05);
                 });
               },
               1, kN2048, Verdict::regression});
  // Against a baseline from a slower machine, a slowdown shrinks by the machines' difference:
  // 10 % at N=1 on machine 1 against machine 3's baseline shows as ~3 %.
  v.push_back({"OtherGpuFused10PctSlowerOnFasterMachineMissed",
               [] {
                 return wave2_pair(kWave2Run3, kWave2Run1, [](Report& r) {
                   scale_variant(case_named(r, kN1x32), "fused", 1.10);
                 });
               },
               0, kN1x32, Verdict::pass});
  // --machine-allowance overrides the uuids: on hides 5 % at N=128 on the same GPU, off
  // catches it on another.
  v.push_back({"SameGpuAllowanceOnMisses5PctAtN128",
               with_allowance(fused_by(kN128, 1.05), MachineAllowance::on), 0, kN128,
               Verdict::pass});
  v.push_back({"OtherGpuAllowanceOffCatches5PctAtN128",
               with_allowance(other_gpu_shift(128, 1.05), MachineAllowance::off), 1, kN128,
               Verdict::regression, false});

  // ---- the whole GPU slower: every variant's time up; the speedup does not move
  auto gpu_wide = [](double f) {
    return [f] { return seed_pair([&](Report& r) { scale_all_variants(r, f); }); };
  };
  v.push_back(
      {"GpuWide5PctSlowerFailsFused", gpu_wide(1.05), 1, kN2048, Verdict::regression, false});
  v.push_back({"GpuWide5PctSlowerSpeedupGatePasses", with_gate(gpu_wide(1.05), {Gated::speedup}), 0,
               kN2048, Verdict::pass});
  v.push_back({"GpuWide1PctSlowerPasses", gpu_wide(1.01), 0, kN2048, Verdict::pass});

  // ---- broken runs never pass
  auto missing31 = [] {
    return seed_pair([](Report& r) {
      r.cases.erase(r.cases.begin() + 1, r.cases.end());  // 1 of 32 left
    });
  };
  const std::string second_id = committed_report(kSeed).cases[1].id;
  v.push_back({"Missing31Of32", missing31, 1, second_id, Verdict::missing});
  v.push_back({"Missing31Of32Allowed", allow_missing(missing31), 0, second_id, Verdict::missing});
  auto added = [](Disposition d) {
    return [d] {
      return seed_pair([&](Report& r) {
        CaseResult c = case_named(r, kN128);
        c.spec.tokens = 96;
        c.id = c.spec.id();
        c.validation = d;
        if (d != Disposition::passed) c.variants.clear();
        r.cases.push_back(c);
      });
    };
  };
  const std::string new_id = "bf16|auto|32x8x128|neox|nhd|N=96";
  v.push_back({"AddedCasePasses", added(Disposition::passed), 0, new_id, Verdict::added});
  v.push_back(
      {"AddedCaseIncorrect", added(Disposition::incorrect), 2, new_id, Verdict::not_passed});
  auto matched_as = [](Disposition d) {
    return [d] {
      return seed_pair([&](Report& r) {
        CaseResult& c = case_named(r, kN128);
        c.validation = d;
        c.variants.clear();
        c.speedup.reset();
      });
    };
  };
  v.push_back(
      {"MatchedIncorrect", matched_as(Disposition::incorrect), 2, kN128, Verdict::not_passed});
  v.push_back({"MatchedFailed", matched_as(Disposition::failed), 2, kN128, Verdict::not_passed});
  v.push_back({"MatchedSkipped", matched_as(Disposition::skipped), 2, kN128, Verdict::not_passed});
  v.push_back({"MatchedNotSupported", matched_as(Disposition::not_supported), 2, kN128,
               Verdict::not_passed});
  v.push_back({"DuplicateInCurrent",
               [] {
                 return seed_pair([](Report& r) {
                   CaseResult slower = case_named(r, kN128);
                   scale_variant(slower, "fused", 1.5);
                   r.cases.push_back(slower);
                 });
               },
               4, kN128, std::nullopt});
  v.push_back({"DuplicateInBaseline",
               [] {
                 Scene s = seed_pair();
                 s.baseline.cases.push_back(case_named(s.baseline, kN2048));
                 return s;
               },
               4, kN2048, std::nullopt});
  auto incomplete_baseline = [] {
    Scene s = seed_pair();
    s.baseline.complete = false;
    return s;
  };
  v.push_back({"IncompleteBaselineRefused", incomplete_baseline, 4, "", std::nullopt});
  v.push_back({"IncompleteBaselineForced", forced(incomplete_baseline), 0, "", std::nullopt});
  auto interrupted = [] {
    return seed_pair([](Report& r) {
      r.complete = false;
      r.cases.pop_back();
    });
  };
  const std::string last_id = committed_report(kSeed).cases.back().id;
  v.push_back({"InterruptedCurrent", interrupted, 1, last_id, Verdict::missing});
  v.push_back(
      {"InterruptedCurrentAllowMissing", allow_missing(interrupted), 3, last_id, Verdict::missing});

  // ---- another environment (exit 5) or other timing settings (exit 4), unless forced
  auto env = [](std::function<void(DeviceInfo&)> change) {
    return [change] { return seed_pair([&](Report& r) { change(r.device); }); };
  };
  auto driver = env([](DeviceInfo& d) { d.driver_version = "590.10.01"; });
  v.push_back({"OtherDriver", driver, 5, "", std::nullopt});
  v.push_back({"OtherDriverForced", forced(driver), 0, "", std::nullopt});
  v.push_back({"OtherDevice", env([](DeviceInfo& d) { d.name = "NVIDIA H100 80GB HBM3"; }), 5, "",
               std::nullopt});
  v.push_back({"OtherRuntime", env([](DeviceInfo& d) { d.runtime_version = "12.9"; }), 5, "",
               std::nullopt});
  v.push_back({"OtherSmCount", env([](DeviceInfo& d) { d.sm_count = 114; }), 5, "", std::nullopt});
  v.push_back({"OtherClocksWarnOnly", env([](DeviceInfo& d) { d.sm_clock_max_mhz = 1755; }), 0, "",
               std::nullopt});
  auto timing = [] { return seed_pair([](Report& r) { r.timing.timeout_s = 2; }); };
  v.push_back({"OtherTimingRefused", timing, 4, "", std::nullopt});
  v.push_back({"OtherTimingForced", forced(timing), 0, "", std::nullopt});
  v.push_back({"OtherPassesRefused",
               [] { return seed_pair([](Report& r) { r.timing.passes = 1; }); }, 4, "",
               std::nullopt});
  // Another producer (one that streams weights) makes other added times, but only where both
  // runs timed a producer mode; a graph-mode gate ignores the setting.
  auto producer_read = [](bool producer_modes) {
    return [producer_modes] {
      Scene s = seed_pair([](Report& r) { r.timing.producer_read_mib = 96; });
      if (producer_modes)
        for (Report* r : {&s.baseline, &s.current})
          r->timing.modes.push_back(TimingMode::producer_pdl);
      return s;
    };
  };
  v.push_back({"OtherProducerReadRefused", producer_read(true), 4, "", std::nullopt});
  v.push_back({"OtherProducerReadWithoutProducerModes", producer_read(false), 0, "", std::nullopt});

  // ---- accept, re-run
  v.push_back({"AcceptedRegression",
               [] {
                 Scene s = fused_by(kN128, 1.10)();
                 s.options.accept = {kN128};
                 return s;
               },
               0, kN128, Verdict::accepted});
  v.push_back({"RerunConfirms",
               [] {
                 Scene s = fused_by(kN2048, 1.10)();
                 s.rerun = s.current;
                 return s;
               },
               1, kN2048, Verdict::regression});
  v.push_back({"RerunDoesNotConfirm",
               [] {
                 Scene s = fused_by(kN2048, 1.10)();
                 s.rerun = committed_report(kSeed2);
                 return s;
               },
               0, kN2048, Verdict::unconfirmed});
  v.push_back({"RerunFailsValidation",
               [] {
                 Scene s = fused_by(kN2048, 1.10)();
                 s.rerun = committed_report(kSeed2);
                 case_named(*s.rerun, kN2048).validation = Disposition::incorrect;
                 return s;
               },
               2, kN2048, Verdict::not_passed});
  return v;
}

// What CTest shows for a parameter: the scenario's name, not its bytes.
void PrintTo(const Scenario& s, std::ostream* os) {
  *os << s.name;
}

class GateScenario : public ::testing::TestWithParam<Scenario> {};

TEST_P(GateScenario, ExitCodeAndNamedCase) {
  const Scenario& sc = GetParam();
  Scene s = sc.make();
  const CompareOutcome o =
      compare_reports(s.baseline, s.current, s.options, s.rerun ? &*s.rerun : nullptr);
  EXPECT_EQ(o.exit_code(), sc.exit) << o.message;
  if (sc.id.empty()) return;
  if (o.exit == CompareExit::usage || o.exit == CompareExit::environment) {
    EXPECT_NE(o.message.find(sc.id), std::string::npos) << o.message;
    return;
  }
  const CaseComparison* named = nullptr;
  for (const CaseComparison& c : o.cases)
    if (c.id == sc.id) named = &c;
  ASSERT_NE(named, nullptr) << sc.id;
  if (sc.verdict) {
    EXPECT_EQ(to_string(named->verdict), to_string(*sc.verdict));
  }
  // Nothing else fails: the doctored case is the only one the gate may name.
  if (!sc.only_named_fails) return;
  for (const CaseComparison& c : o.cases)
    if (c.id != sc.id && c.verdict != Verdict::missing) {
      EXPECT_FALSE(fails_gate(c.verdict, o.allow_missing)) << c.id << ": " << to_string(c.verdict);
    }
}

INSTANTIATE_TEST_SUITE_P(Committed, GateScenario, ::testing::ValuesIn(scenarios()),
                         [](const auto& info) { return info.param.name; });

// ---- every committed same-build re-run pair passes, in both directions
class SameBuild : public ::testing::TestWithParam<testing::SameBuildPair> {};

// Pairs timed on one GPU pass with the tight rule (one uuid stamped on both); every pair passes as
// committed (no uuid: the GPU unknown) and as measured on two GPUs (the machine allowance).
TEST_P(SameBuild, PassesBothWays) {
  const auto& p = GetParam();
  CompareOptions o;
  o.allow_missing = p.overlapping;
  for (const char* boards : {"same", "other", "unknown"}) {
    if (std::string(boards) == "same" && !p.one_gpu) continue;
    for (const auto& [first, second] :
         {std::pair{p.first, p.second}, std::pair{p.second, p.first}}) {
      Report a = committed_report(first), b = committed_report(second);
      if (std::string(boards) == "same") stamp_same_gpu(a, b);
      if (std::string(boards) == "other") stamp_other_gpus(a, b);
      const CompareOutcome out = compare_reports(a, b, o);
      EXPECT_EQ(out.exit_code(), 0)
          << first << " -> " << second << " (" << boards << " GPU): " << out.message;
      EXPECT_EQ(out.count(Verdict::regression), 0) << first << " -> " << second;
      EXPECT_EQ(out.machine_allowance_applies, std::string(boards) != "same");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Committed, SameBuild, ::testing::ValuesIn(testing::same_build_pairs()),
                         [](const auto& info) { return "Pair" + std::to_string(info.index); });

// ---- across kernel versions: a case whose fused kernel got faster is never flagged
void expect_no_faster_case_flagged(const std::string& old_report, const std::string& new_report) {
  const Report& a = committed_report(old_report);
  const Report& b = committed_report(new_report);
  CompareOptions o;
  o.force = true;  // v1 timed one pass with a 2 s timeout, the v5 seed table three with 0.5 s
  const CompareOutcome out = compare_reports(a, b, o);
  int faster = 0;
  for (const CaseComparison& c : out.cases) {
    ASSERT_FALSE(c.gates.empty()) << c.id;
    const bool fused_faster = c.gates[0].current < c.gates[0].baseline;
    faster += fused_faster;
    if (fused_faster) {
      EXPECT_NE(c.verdict, Verdict::regression) << c.id;
    }
    if (c.verdict == Verdict::regression) {
      EXPECT_GT(c.gates[0].judgement.delta, 0.02) << c.id;
    }
  }
  EXPECT_GT(faster, 20);  // v5 is faster nearly everywhere: the check has something to check
}

TEST(GateAcrossVersions, V1ToV5DecodeFlagsNoFasterCase) {
  expect_no_faster_case_flagged("experiments/v1-e4aa524-decode.json", "decode.json");
}

TEST(GateAcrossVersions, V1ToV5SeedFlagsNoFasterCase) {
  expect_no_faster_case_flagged("experiments/v1-e4aa524-seed-table.json", kSeed);
}

}  // namespace
}  // namespace rkv
