// Reports as `bench` and `validate` write them (schema version 2, run metadata filled in), for
// the tests that need files: a short series of bench runs over four revisions with a planted
// regression, a planted validation failure and a planted win, and a validate run. The samples
// writer test puts them where the schema, history and dashboard CTests read them.
#pragma once

#include <string>
#include <vector>

#include "report_fixture.h"

namespace rkv::testing {

struct NamedReport {
  std::string file;  // e.g. "series-3.json"
  Report report;
};

// Case B (bf16|fp8_e4m3|32x8x128|...|N=2048, graph) regresses at revision 3 and recovers at 4;
// case C (fp16|auto|...|N=128, cold) fails validation at revision 4; case A stays put.
inline std::vector<NamedReport> report_samples() {
  std::vector<NamedReport> out;
  const double fused_b[] = {10.0, 10.1, 13.0, 10.0};
  for (int i = 0; i < 4; ++i) {
    Report r = base_report();
    const std::string n = std::to_string(i + 1);
    r.tool_version = "0.2.0";
    r.git_revision = std::string(7, static_cast<char>('1' + i)) + "abcde";
    r.created_utc = "2026-01-0" + n + "T11:00:00Z";
    r.timing.modes = {TimingMode::graph, TimingMode::cold};
    r.run.git_commit_time_utc = "2026-01-0" + n + "T10:00:00Z";
    r.run.git_branch = "main";
    r.run.config_path = "configs/ci-smoke.json";
    r.run.config_name = "ci-smoke";
    r.run.config_hash = fnv1a64_text("{\"name\": \"ci-smoke\"}");
    r.run.tags = {{"ci", "nightly"}, {"run", n}};
    r.run.host = "gpu-box-" + n;
    r.run.sm_clock_seen.add({1980, 1965.5 - i});
    r.run.mem_clock_mhz = 3201;
    r.cases = {
        timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 4.0, 2.0 + 0.01 * i),
        timed_case(DType::bf16, CacheDType::fp8_e4m3, 8, 2048, "graph", 20.2, fused_b[i], 0.01),
        timed_case(DType::fp16, CacheDType::auto_, 8, 128, "cold", 8.0, 5.0)};
    // bench records the fused kernel's launch (CaseResult::fused_launch)
    r.cases[0].fused_launch = FusedLaunchRecord{"decode_roles", true, 2, 256, true};
    r.cases[1].fused_launch = FusedLaunchRecord{"flat", false, 1024, 131072, false};
    if (i == 1)  // a run made with --samples: per-pass buffer addresses (docs/report.md)
      r.cases[0].buffer_addresses = {
          {{"positions", 0x7f3a00000000ull}, {"qkv_a", 0x7f3a00200000ull}},
          {{"positions", 0x7f3a00600000ull}, {"qkv_a", 0x7f3a00800000ull}}};
    if (i == 3) {
      CaseResult& c = r.cases[2];
      c.validation = Disposition::incorrect;
      c.mismatches = 3;
      c.first_mismatch = "key_cache[block=0, offset=1, head=2, d=5]";
      c.detail = "fused differs from the golden model";
      c.variants.clear();
      c.speedup.reset();
    }
    out.push_back({"series-" + n + ".json", r});
  }
  Report v = out.back().report;
  v.command = "validate";
  v.created_utc = "2026-01-04T11:30:00Z";
  v.run.sm_clock_seen = ClockRange{};
  for (CaseResult& c : v.cases) {
    c.mode = "";
    c.variants.clear();
    c.speedup.reset();
    c.repro = "rope-kv-bench validate " + c.spec.repro_args();
    c.fused_launch.reset();  // validate launches, but does not record the launch
  }
  out.push_back({"validate.json", v});
  Report interrupted = out.front().report;
  interrupted.complete = false;
  interrupted.created_utc = "2026-01-01T12:00:00Z";
  interrupted.cases.resize(1);
  interrupted.run.tags.clear();
  out.push_back({"interrupted.json", interrupted});
  return out;
}

}  // namespace rkv::testing
