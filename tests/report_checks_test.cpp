// The report reader refuses reports that contradict themselves, naming the key path, and still
// reads every report committed under results/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "committed_reports.h"
#include "report/report.h"
#include "report_fixture.h"

#ifndef RKV_SOURCE_DIR
#error "RKV_SOURCE_DIR must name the repository root (CMake defines it)"
#endif

namespace rkv {
namespace {

using nlohmann::json;

json good_report() {
  Report r = testing::base_report();
  r.cases = {testing::timed_case(DType::bf16, CacheDType::auto_, 8, 128, "graph", 20.0, 8.0),
             testing::timed_case(DType::bf16, CacheDType::auto_, 8, 128, "cold", 30.0, 12.0),
             testing::timed_case(DType::fp16, CacheDType::fp8_e4m3, 8, 7, "graph", 9.0, 4.0)};
  return r;
}

// The message of reading `j` after `spoil`, or "" when it reads.
std::string error_after(const std::function<void(json&)>& spoil) {
  json j = good_report();
  spoil(j);
  try {
    (void)j.get<Report>();
  } catch (const ReportFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(ReportChecks, TheGoodReportReads) {
  EXPECT_EQ(error_after([](json&) {}), "");
}

TEST(ReportChecks, AnIdThatIsNotItsSpecsIsRefused) {
  EXPECT_EQ(error_after([](json& j) { j["cases"][1]["spec"]["tokens"] = 129; }),
            "cases[1].id: 'bf16|auto|32x8x128|neox|nhd|N=128' disagrees with its spec, whose id "
            "is 'bf16|auto|32x8x128|neox|nhd|N=129'");
}

TEST(ReportChecks, ImpossibleSpecsAreRefused) {
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["spec"]["heads"] = "32x7x128"; }),
            "cases[0].spec: not a case that can run: 32x7x128: 32 query heads are not a multiple "
            "of 7 kv heads");
  EXPECT_NE(error_after([](json& j) {
              j["cases"][0]["spec"]["tokens"] = -4;
            }).find("cases[0].spec: not a case that can run: tokens must be at least 1"),
            std::string::npos);
}

TEST(ReportChecks, ImpossibleStatisticsNameTheirKey) {
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["variants"][1]["q1_us"] = 100.0; }),
            "cases[0].variants[1].q1_us: 100 is above median_us 20");
  EXPECT_EQ(error_after([](json& j) { j["cases"][2]["variants"][0]["n"] = -1; }),
            "cases[2].variants[0].n: -1 is negative");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["variants"][0]["min_us"] = -0.5; }),
            "cases[0].variants[0].min_us: -0.5 is negative");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["variants"][0]["passes"][1]["max_us"] = 0.0; }),
            "cases[0].variants[0].passes[1].q3_us: 8.13 is above max_us 0");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["validation"]["mismatches"] = -3; }),
            "cases[0].validation.mismatches: -3 is negative");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["min_bytes"] = -1; }),
            "cases[0].min_bytes: -1 is negative");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["variants"][2]["throttled_samples"] = -2; }),
            "cases[0].variants[2].throttled_samples: -2 is negative");
}

TEST(ReportChecks, ImpossibleSpeedupsAreRefused) {
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["speedup"]["lo"] = 9.0; }),
            "cases[0].speedup.lo: 9 is above median 2.5");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["speedup"]["median"] = -2.5; }),
            "cases[0].speedup.median: -2.5 is not positive");
  EXPECT_EQ(error_after([](json& j) {
              j["cases"][0]["speedup"]["pass_medians"] = {2.5, 0};
            }),
            "cases[0].speedup.pass_medians[1]: 0 is not positive");
}

TEST(ReportChecks, UnknownModesAndRepeatsAreRefused) {
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["mode"] = "warp"; }),
            "cases[0].mode: unknown mode 'warp' (\"\" when not timed, or one of cold, warm, "
            "graph, wall, producer, producer_pdl)");
  EXPECT_EQ(error_after([](json& j) { j["cases"][1]["mode"] = "graph"; }),
            "cases[1]: repeats cases[0] (id 'bf16|auto|32x8x128|neox|nhd|N=128', mode 'graph')");
  EXPECT_EQ(error_after([](json& j) { j["cases"][0]["variants"][3]["variant"] = "fused"; }),
            "cases[0].variants[3].variant: 'fused' is timed twice in this case");
}

TEST(ReportChecks, ReportLevelFieldsAreChecked) {
  EXPECT_EQ(error_after([](json& j) { j["command"] = "profile"; }),
            "command: unknown value 'profile' (one of bench, validate)");
  // A value from the file is quoted as every message quotes input: one printable line (found by
  // fuzz_report: a tab inside the command).
  EXPECT_EQ(error_after([](json& j) { j["command"] = "valid\te\n"; }),
            "command: unknown value 'valid\\te\\n' (one of bench, validate)");
  EXPECT_EQ(error_after([](json& j) { j["device"]["sm_count"] = -132; }),
            "device.sm_count: -132 is below the minimum 0");
  EXPECT_EQ(error_after([](json& j) { j["device"]["launch_floor_us"]["graph"] = -1.0; }),
            "device.launch_floor_us.graph: -1 is negative");
  EXPECT_EQ(error_after([](json& j) { j["timing"]["min_samples"] = 0; }),
            "timing.min_samples: '0' is out of range [1, 1000000]");
  EXPECT_EQ(error_after([](json& j) { j["timing"]["producer_read_mib"] = -1; }),
            "timing.producer_read_mib: '-1' is out of range [0, 16384]");
}

// The plain reports under results/ and the packed ones the build unpacks (tests/CMakeLists.txt,
// RKV_PACKED_REPORTS); `floor` reports, a kind of their own, are refused as such.
TEST(ReportChecks, EveryCommittedReportReads) {
  namespace fs = std::filesystem;
  int reports = 0, floor_reports = 0;
  for (const std::string& root : testing::committed_roots("results")) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file() || e.path().extension() != ".json") continue;
      std::ifstream f(e.path());
      const json j = json::parse(f, nullptr, false);
      if (!j.is_object() || !j.contains("schema_version")) continue;  // Google Benchmark's, gtest's
      if (j.value("command", "") == "floor") {  // `floor`'s own kind, refused by name
        ++floor_reports;
        EXPECT_THROW((void)read_report(e.path().string()), ReportFormatError) << e.path();
        continue;
      }
      ++reports;
      EXPECT_NO_THROW((void)read_report(e.path().string())) << e.path();
    }
  }
  EXPECT_GE(reports, 50);
  EXPECT_GE(floor_reports, 4);  // results/h100 and results/h200 wave31/floor-shapes/
}

}  // namespace
}  // namespace rkv
