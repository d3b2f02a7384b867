// Schema version 2: the run metadata (tags, config hash, clocks), reading version 1 reports, and
// the reader refusing what docs/report-schema.json refuses.
#include "report/run_metadata.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "report/build_info.h"
#include "report/report.h"
#include "report_samples.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using nlohmann::json;

json sample() {
  return testing::report_samples().front().report;
}

std::string refusal(const json& j) {
  try {
    (void)j.get<Report>();
  } catch (const ReportFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(RunMetadata, Fnv1a64MatchesTheReferenceVectors) {
  // FNV-1a 64 test vectors from the algorithm's authors.
  EXPECT_EQ(fnv1a64_text(""), "fnv1a64:cbf29ce484222325");
  EXPECT_EQ(fnv1a64_text("a"), "fnv1a64:af63dc4c8601ec8c");
  EXPECT_EQ(fnv1a64_text("foobar"), "fnv1a64:85944171f73967e8");
  const std::string path = per_process_temp_dir() + "config.json";
  std::ofstream(path, std::ios::binary) << "foobar";
  EXPECT_EQ(file_fnv1a64(path), fnv1a64_text("foobar"));
  EXPECT_FALSE(file_fnv1a64(path + ".missing").has_value());
}

TEST(RunMetadata, TagsAreValidatedAndMayNotRepeat) {
  std::map<std::string, std::string> tags;
  EXPECT_FALSE(parse_tags({"ci=nightly", "gpu.count=8", "note=a b=c"}, &tags));
  EXPECT_EQ(tags.at("note"), "a b=c");  // only the first '=' splits
  for (const char* bad : {"novalue", "=x", "k=", "sp ace=x", "k=tab\there"}) {
    std::map<std::string, std::string> t;
    const auto why = parse_tags({bad}, &t);
    ASSERT_TRUE(why.has_value()) << bad;
    EXPECT_NE(why->find(bad), std::string::npos) << *why;
  }
  std::map<std::string, std::string> t;
  EXPECT_NE(parse_tags({"a=1", "a=2"}, &t).value_or("").find("repeats"), std::string::npos);
  EXPECT_TRUE(tag_problem(std::string(65, 'k'), "v").has_value());
  EXPECT_TRUE(tag_problem("k", std::string(201, 'v')).has_value());
}

TEST(RunMetadata, ClockRangeIgnoresNonFiniteAndStartsEmpty) {
  ClockRange c;
  EXPECT_TRUE(std::isnan(c.min_mhz));
  c.add({1980, NAN, 1410.5, 1755});
  EXPECT_DOUBLE_EQ(c.min_mhz, 1410.5);
  EXPECT_DOUBLE_EQ(c.max_mhz, 1980);
}

TEST(RunMetadata, BuildAndHostAreFilledIn) {
  RunMetadata m;
  m.config_path = "c.json";
  const RunMetadata filled = with_build_and_host(m);
  EXPECT_EQ(filled.config_path, "c.json");
  EXPECT_EQ(filled.git_branch, git_branch());
  EXPECT_EQ(filled.git_commit_time_utc, git_commit_time_utc());
  EXPECT_FALSE(filled.host.empty());
  EXPECT_NE(version_line().find(tool_version()), std::string::npos);
  EXPECT_NE(version_line().find(git_revision()), std::string::npos);
}

TEST(RunMetadata, RoundTripsInTheReport) {
  const json j = sample();
  EXPECT_EQ(j.at("schema_version"), 2);
  const Report back = j.get<Report>();
  EXPECT_EQ(back.run.tags.at("ci"), "nightly");
  EXPECT_EQ(back.run.config_hash.rfind("fnv1a64:", 0), 0u);
  EXPECT_DOUBLE_EQ(back.run.sm_clock_seen.min_mhz, 1965.5);
  EXPECT_EQ(back.run.mem_clock_mhz, 3201);
  EXPECT_EQ(json(back).dump(), j.dump());
}

TEST(RunMetadata, VersionOneReportsReadWithoutRun) {
  json j = sample();
  j["schema_version"] = 1;
  j.erase("run");
  const Report r = j.get<Report>();
  EXPECT_EQ(r.schema_version, 1);
  EXPECT_TRUE(r.run.host.empty());
  EXPECT_EQ(json(r).at("schema_version"), kReportSchemaVersion);  // rewritten as current
}

TEST(RunMetadata, VersionTwoNeedsRunAndOtherVersionsAreRefused) {
  json j = sample();
  j.erase("run");
  EXPECT_EQ(refusal(j), "missing key 'run'");
  for (int v : {0, 3}) {
    json k = sample();
    k["schema_version"] = v;
    EXPECT_NE(refusal(k).find("schema_version is " + std::to_string(v)), std::string::npos);
  }
}

// One planted violation per constraint the schema states beyond types; the reader names it.
TEST(RunMetadata, ReaderRefusesWhatTheSchemaRefuses) {
  const std::vector<std::pair<std::function<void(json&)>, std::string>> plants = {
      {[](json& j) { j["run"]["tags"]["bad key"] = "x"; }, "run.tags['bad key']: a tag key"},
      {[](json& j) { j["run"]["tags"]["k"] = 7; }, "run.tags.k: expected a string"},
      {[](json& j) { j["run"]["config_hash"] = "sha1:00"; }, "run.config_hash"},
      {[](json& j) { j["run"]["git_commit_time_utc"] = "yesterday"; }, "run.git_commit_time_utc"},
      {[](json& j) { j["run"]["sm_clock_mhz_min"] = 0; }, "run.sm_clock_mhz_min"},
      {[](json& j) { j["run"]["mem_clock_mhz"] = -1; }, "run.mem_clock_mhz"},
      {[](json& j) { j["tool"] = "other-bench"; }, "tool: 'other-bench' is not 'rope-kv-bench'"},
      {[](json& j) { j["tool"] = "ro\x7fpe-kv-bench"; },
       "tool: 'ro\\x7Fpe-kv-bench' is not 'rope-kv-bench'"},
      {[](json& j) { j["tool"] = 5; }, "tool: '5' is not 'rope-kv-bench'"},
      {[](json& j) { j["command"] = "profile"; }, "command: unknown value 'profile'"},
      {[](json& j) { j["device"]["sm_count"] = -1; }, "device.sm_count: -1 is below"},
      {[](json& j) { j["device"]["fingerprint"] = 5; }, "device.fingerprint"},
      {[](json& j) { j["timing"]["passes"] = 0; }, "timing.passes: 0 is below the minimum 1"},
      {[](json& j) { j["cases"][1]["spec"]["tokens"] = 0; },
       "cases[1].spec: not a case that can run: tokens must be at least 1"},
      {[](json& j) { j["cases"][0]["mode"] = "hot"; }, "cases[0].mode: unknown mode 'hot'"},
      {[](json& j) { j["cases"][0]["variants"][2]["variant"] = "triple"; },
       "cases[0].variants[2].variant"},
      {[](json& j) { j["cases"][0]["variants"][0]["passes"][1]["n"] = -2; },
       "cases[0].variants[0].passes[1].n"},
      {[](json& j) { j["cases"][2]["validation"]["mismatches"] = -1; },
       "cases[2].validation.mismatches"},
  };
  for (const auto& [plant, expected] : plants) {
    json j = sample();
    plant(j);
    const std::string why = refusal(j);
    EXPECT_NE(why.find(expected), std::string::npos)
        << "expected '" << expected << "', got '" << why << "'";
  }
}

}  // namespace
}  // namespace rkv
