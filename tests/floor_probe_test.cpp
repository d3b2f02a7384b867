// `rope-kv-bench floor` without a GPU: SPAN/ROW patterns and their refusals, the request's
// limits, what the CLI parses, and the report's JSON and table built from a known measurement.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli_words.h"
#include "floor/copy_pattern.h"
#include "floor/floor_report.h"
#include "floor/floor_request.h"

#ifndef RKV_SOURCE_DIR
#error "RKV_SOURCE_DIR must name the repository root (CMake defines it)"
#endif

namespace rkv {
namespace {

std::optional<CopyPattern> parsed(const std::string& text, std::string* problem = nullptr) {
  std::string why;
  auto p = parse_copy_pattern(text, &why);
  if (problem) *problem = why;
  return p;
}

ParseOutcome parse(const std::vector<std::string>& args) {
  return parse_words(args);
}

TEST(CopyPattern, SpanAndRowAreReadAsBytes) {
  ASSERT_TRUE(parsed("128/384"));
  EXPECT_EQ(parsed("128/384")->span_bytes, 128);
  EXPECT_EQ(parsed("128/384")->row_bytes, 384);
  EXPECT_EQ(parsed("1152/1152")->text(), "1152/1152");
  EXPECT_TRUE(parsed("1152/1152")->contiguous());
  EXPECT_FALSE(parsed("16/1048576")->contiguous());
}

TEST(CopyPattern, EveryMalformedTextIsRefusedWithItsReason) {
  for (const char* text : {"", "128", "128/", "/384", "128x384", "-16/384", "16/384/2", " 16/384",
                           "0/16", "16/0", "16/2097152", "99999999/16", "1e2/384"}) {
    std::string why;
    EXPECT_FALSE(parsed(text, &why)) << text;
    EXPECT_NE(why.find("is not SPAN/ROW"), std::string::npos) << text << ": " << why;
  }
  std::string why;
  EXPECT_FALSE(parsed("100/384", &why));
  EXPECT_EQ(why, "'100/384': SPAN and ROW must be multiples of 16 bytes");
  EXPECT_FALSE(parsed("128/392", &why));
  EXPECT_EQ(why, "'128/392': SPAN and ROW must be multiples of 16 bytes");
  EXPECT_FALSE(parsed("512/384", &why));
  EXPECT_EQ(why, "'512/384': SPAN is larger than ROW");
}

TEST(FloorRequest, RowsMoveTheAskedBytesEachWay) {
  EXPECT_EQ(floor_probe_rows({128, 384}, 256), (std::int64_t{256} << 20) / 128);
  EXPECT_EQ(floor_probe_rows({384, 384}, 1), (std::int64_t{1} << 20) / 384 + 1);  // rounded up
  EXPECT_GE(floor_probe_rows({384, 384}, 1) * 384, std::int64_t{1} << 20);
}

TEST(FloorRequest, AFootprintPastTheKernelsIndexIsRefused) {
  FloorRequest r;
  EXPECT_EQ(floor_request_problem(r), std::nullopt);
  r.patterns = {{16, 1 << 20}};
  ASSERT_TRUE(floor_request_problem(r));
  EXPECT_EQ(
      *floor_request_problem(r),
      "16/1048576 at --moved-mib 256 spans 16384.0 GiB of rows, more than the 32 GiB allowed");
  r.patterns = {{16, 4096}};  // 256 MiB of 16 B spans: 16 Mi rows of 4 KiB, 64 GiB
  EXPECT_TRUE(floor_request_problem(r));
  r.moved_mib = 128;  // 32 GiB exactly
  EXPECT_EQ(floor_request_problem(r), std::nullopt);
  r.patterns.clear();
  EXPECT_EQ(floor_request_problem(r), "no pattern to time");
}

TEST(FloorCli, FlagsBecomeTheRequest) {
  ParseOutcome out = parse({"floor", "--patterns", "128/384,1152/1152,128/384", "--moved-mib", "64",
                            "--in-place", "--json", "/dev/null"});
  ASSERT_TRUE(out.invocation) << out.message;
  const CliInvocation& inv = *out.invocation;
  EXPECT_EQ(inv.command, Command::floor);
  const std::vector<CopyPattern> want{{128, 384}, {1152, 1152}};  // the repeat dropped
  EXPECT_EQ(inv.floor.patterns, want);
  EXPECT_EQ(inv.floor.moved_mib, 64);
  EXPECT_TRUE(inv.floor.in_place);
  EXPECT_EQ(inv.json_out, "/dev/null");
  EXPECT_EQ(to_string(inv.command), "floor");
}

TEST(FloorCli, WithoutFlagsItTimesTheDefaultPatterns) {
  ParseOutcome out = parse({"floor"});
  ASSERT_TRUE(out.invocation) << out.message;
  EXPECT_EQ(out.invocation->floor.patterns, default_copy_patterns());
  EXPECT_EQ(out.invocation->floor.moved_mib, 256);
  EXPECT_FALSE(out.invocation->floor.in_place);
  EXPECT_EQ(out.invocation->json_out, "");
}

TEST(FloorCli, BadValuesAreOneLineUsageErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"floor", "--patterns", "128x384"},
        {"floor", "--patterns", "128/384,100/384"},
        {"floor", "--moved-mib", "0"},
        {"floor", "--moved-mib", "16385"},
        {"floor", "--patterns", "16/1048576"},
        {"floor", "--json", std::string(RKV_SOURCE_DIR) + "/README.md/x.json"},
        {"floor", "--nosuch"}}) {
    const ParseOutcome out = parse(args);
    EXPECT_FALSE(out.invocation) << args.back();
    EXPECT_EQ(out.exit_code, 4) << args.back();
    EXPECT_EQ(out.message.rfind("rope-kv-bench: error: ", 0), 0u) << out.message;
    EXPECT_EQ(out.message.find('\n'), out.message.size() - 1) << out.message;
  }
}

FloorReport measured_report() {
  FloorReport r;
  r.tool_version = "0.0.0";
  r.git_revision = "abc1234";
  r.created_utc = "2026-12-06T00:00:00Z";
  r.argv = {"rope-kv-bench", "floor"};
  r.device.name = "Test GPU";
  r.device.sm_count = 132;
  r.device.copy_bandwidth_gbps = 3000;
  PatternTiming sparse;
  sparse.pattern = {128, 384};
  sparse.rows = 1000;
  sparse.bytes_moved = 256000;
  sparse.runs_us = {0.2, 0.1, 0.3};
  sparse.median_us = 0.2;
  sparse.gbps = 1280;
  r.patterns = {sparse};
  return r;
}

TEST(FloorReport, TheJsonHoldsProvenanceAndEveryRun) {
  const nlohmann::json j = nlohmann::json::parse(floor_report_json(measured_report()));
  EXPECT_EQ(j.at("command"), "floor");
  EXPECT_EQ(j.at("schema_version"), kFloorSchemaVersion);
  EXPECT_EQ(j.at("git_revision"), "abc1234");
  EXPECT_EQ(j.at("device").at("name"), "Test GPU");
  EXPECT_EQ(j.at("device").at("copy_bandwidth_gbps"), 3000);
  EXPECT_TRUE(j.at("run").is_object());
  EXPECT_EQ(j.at("timing").at("mode"), "cold");
  EXPECT_EQ(j.at("moved_mib"), 256);
  EXPECT_EQ(j.at("in_place"), false);
  const nlohmann::json& p = j.at("patterns").at(0);
  EXPECT_EQ(p.at("pattern"), "128/384");
  EXPECT_EQ(p.at("span_bytes"), 128);
  EXPECT_EQ(p.at("row_bytes"), 384);
  EXPECT_EQ(p.at("rows"), 1000);
  EXPECT_EQ(p.at("bytes_moved"), 256000);
  EXPECT_EQ(p.at("runs_us"), nlohmann::json({0.2, 0.1, 0.3}));
  EXPECT_DOUBLE_EQ(p.at("gbps").get<double>(), 1280);
  EXPECT_NEAR(p.at("pct_of_copy_bandwidth").get<double>(), 100.0 * 1280 / 3000, 1e-9);
}

TEST(FloorReport, TheTableGivesEachPatternsShareOfTheCopy) {
  const std::string text = floor_table_text(measured_report());
  EXPECT_NE(text.find("Test GPU (132 SMs): contiguous copy 3000 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("128/384"), std::string::npos) << text;
  EXPECT_NE(text.find("1280"), std::string::npos) << text;
  EXPECT_NE(text.find("42.7"), std::string::npos) << text;  // 1280 / 3000
}

}  // namespace
}  // namespace rkv
