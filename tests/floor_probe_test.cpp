// `rope-kv-bench floor` without a GPU: SPAN/ROW patterns and their refusals, the request's
// limits, what the CLI parses, and the report's JSON and table built from a known measurement.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli_words.h"
#include "floor/copy_kernel.h"
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

CopyTiming copy_timing(CopyKernel k, std::vector<double> runs, double median, double gbps) {
  CopyTiming c;
  c.kernel = k;
  c.runs_us = std::move(runs);
  c.median_us = median;
  c.gbps = gbps;
  return c;
}

// A sparse pattern where the second kernel is fastest, and an in-place-like one that memcpy2d
// did not time.
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
  sparse.copies = {copy_timing(CopyKernel::tile4, {0.3, 0.25, 0.4}, 0.3, 853.3),
                   copy_timing(CopyKernel::tile8, {0.2, 0.1, 0.3}, 0.2, 1280),
                   copy_timing(CopyKernel::grid_stride, {0.21, 0.22, 0.23}, 0.22, 1163.6),
                   copy_timing(CopyKernel::memcpy2d, {0.5, 0.5, 0.5}, 0.5, 512)};
  PatternTiming whole;
  whole.pattern = {384, 384};
  whole.rows = 100;
  whole.bytes_moved = 76800;
  whole.copies = {copy_timing(CopyKernel::tile4, {0.03}, 0.03, 2560),
                  copy_timing(CopyKernel::tile8, {0.04}, 0.04, 1920),
                  copy_timing(CopyKernel::grid_stride, {0.05}, 0.05, 1536)};
  r.patterns = {sparse, whole};
  return r;
}

TEST(FloorReport, ThePatternsRateIsItsFastestCopy) {
  const FloorReport r = measured_report();
  EXPECT_EQ(r.patterns[0].best().kernel, CopyKernel::tile8);
  EXPECT_EQ(r.patterns[1].best().kernel, CopyKernel::tile4);
}

TEST(FloorReport, TheJsonHoldsProvenanceAndEveryRunOfEveryCopy) {
  const nlohmann::json j = nlohmann::json::parse(floor_report_json(measured_report()));
  EXPECT_EQ(j.at("command"), "floor");
  EXPECT_EQ(j.at("schema_version"), kFloorSchemaVersion);
  EXPECT_EQ(j.at("schema_version"), 2);
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
  // The pattern's own keys are its fastest copy's.
  EXPECT_EQ(p.at("copy"), "tile8");
  EXPECT_EQ(p.at("runs_us"), nlohmann::json({0.2, 0.1, 0.3}));
  EXPECT_DOUBLE_EQ(p.at("median_us").get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(p.at("gbps").get<double>(), 1280);
  EXPECT_NEAR(p.at("pct_of_copy_bandwidth").get<double>(), 100.0 * 1280 / 3000, 1e-9);
  const nlohmann::json& copies = p.at("copies");
  ASSERT_EQ(copies.size(), 4u);
  const std::vector<std::string> names{"tile4", "tile8", "grid_stride", "memcpy2d"};
  for (std::size_t k = 0; k < names.size(); ++k)
    EXPECT_EQ(copies.at(k).at("copy"), names[k]);
  EXPECT_EQ(copies.at(3).at("runs_us"), nlohmann::json({0.5, 0.5, 0.5}));
  EXPECT_NEAR(copies.at(3).at("pct_of_copy_bandwidth").get<double>(), 100.0 * 512 / 3000, 1e-9);
  EXPECT_EQ(j.at("patterns").at(1).at("copies").size(), 3u);
  EXPECT_EQ(j.at("patterns").at(1).at("copy"), "tile4");
}

TEST(FloorReport, TheTableGivesEachPatternsShareOfTheCopyAndEachKernels) {
  const std::string text = floor_table_text(measured_report());
  EXPECT_NE(text.find("Test GPU (132 SMs): contiguous copy 3000 GB/s"), std::string::npos) << text;
  const auto line = [&](const std::string& pattern) {
    const std::size_t at = text.find(pattern + " ");
    EXPECT_NE(at, std::string::npos) << text;
    return text.substr(at, text.find('\n', at) - at);
  };
  // 128/384: tile8 fastest at 1280 GB/s (42.7 %); the kernels 28.4, 42.7, 38.8, 17.1 %.
  const std::string sparse = line("128/384");
  EXPECT_NE(sparse.find("1280"), std::string::npos) << sparse;
  EXPECT_NE(sparse.find("42.7        tile8        28.4        42.7        38.8        17.1"),
            std::string::npos)
      << sparse;
  // 384/384: memcpy2d was not timed.
  const std::string whole = line("384/384");
  EXPECT_NE(whole.find("tile4        85.3        64.0        51.2           -"), std::string::npos)
      << whole;
}

TEST(CopyKernels, EachHasANameAndMemcpy2dOnlyCopiesOutOfPlace) {
  const std::vector<CopyKernel> all = all_copy_kernels();
  ASSERT_EQ(all.size(), 4u);
  std::vector<std::string> names;
  for (CopyKernel k : all)
    names.push_back(copy_kernel_name(k));
  EXPECT_EQ(names, (std::vector<std::string>{"tile4", "tile8", "grid_stride", "memcpy2d"}));
  for (CopyKernel k : all) {
    EXPECT_TRUE(copy_kernel_applies(k, false, 0));
    EXPECT_EQ(copy_kernel_applies(k, true, 0x01010101u), k != CopyKernel::memcpy2d);
    EXPECT_EQ(copy_kernel_applies(k, false, 1), k != CopyKernel::memcpy2d);
  }
}

}  // namespace
}  // namespace rkv
