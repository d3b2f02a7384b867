// The rope-kv-bench executable end to end, as a user or CI runs it: exit codes and the one-line
// error contract of main(), the no-GPU behaviour of the main job, report/compare on the
// committed H200 reports, and (with a GPU) what bench --samples records.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "device/cuda_check.h"
#include "temp_paths.h"

namespace rkv {
namespace {

#ifndef RKV_CLI_PATH
#error "RKV_CLI_PATH must name the rope-kv-bench executable (CMake defines it)"
#endif

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs the CLI from the repository root with `args` (already shell-quoted where needed).
CliRun run_cli(const std::string& args) {
  // Per test and process: CTest runs the tests of this file in parallel.
  const std::string stem = per_process_temp_dir() + "rkv_cli_" +
                           testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string out = stem + ".out", err = stem + ".err";
  const std::string cmd = std::string("cd '") + RKV_SOURCE_DIR + "' && '" + RKV_CLI_PATH + "' " +
                          args + " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

TEST(CliProcess, MainJobWithoutGpuSaysSoInOneLine) {
  if (cuda_device_problem().empty()) GTEST_SKIP() << "a GPU is present: the no-GPU path is moot";
  const CliRun r = run_cli("bench --config configs/seed-table.json --json /dev/null");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("rope-kv-bench: error: validate, bench and profile need an NVIDIA GPU", 0),
            0u)
      << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliProcess, FloorWithoutGpuSaysSoInOneLine) {
  if (cuda_device_problem().empty()) GTEST_SKIP() << "a GPU is present: the no-GPU path is moot";
  const std::string json = per_process_temp_dir() + "floor-no-gpu.json";
  std::remove(json.c_str());
  const CliRun r = run_cli("floor --json '" + json + "'");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("rope-kv-bench: error: floor needs an NVIDIA GPU: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::ifstream(json).good()) << "nothing is written without a measurement";
}

// floor end to end: the table on stdout and a JSON report whose patterns and device block are
// those of this run.
TEST(CliProcess, GpuFloorPrintsItsTableAndWritesItsReport) {
  if (const std::string why = cuda_device_problem(); !why.empty()) GTEST_SKIP() << why;
  const std::string json = per_process_temp_dir() + "floor.json";
  const CliRun r = run_cli("floor --patterns 128/384,64/64 --moved-mib 8 --json '" + json + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("contiguous copy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("128/384"), std::string::npos) << r.out;
  const nlohmann::json report = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(report.at("command"), "floor");
  EXPECT_GT(report.at("device").at("copy_bandwidth_gbps").get<double>(), 0.0);
  ASSERT_EQ(report.at("patterns").size(), 2u);
  EXPECT_EQ(report.at("patterns").at(0).at("pattern"), "128/384");
  EXPECT_EQ(report.at("patterns").at(1).at("pattern"), "64/64");
  EXPECT_EQ(report.at("moved_mib"), 8);
  // Out of place, every copy kernel times each pattern, and the pattern's rate is the fastest's.
  for (const nlohmann::json& p : report.at("patterns")) {
    ASSERT_EQ(p.at("copies").size(), 4u);
    double fastest = p.at("copies").at(0).at("median_us").get<double>();
    for (const nlohmann::json& c : p.at("copies"))
      fastest = std::min(fastest, c.at("median_us").get<double>());
    EXPECT_DOUBLE_EQ(p.at("median_us").get<double>(), fastest);
  }
  EXPECT_NE(r.out.find("memcpy2d"), std::string::npos) << r.out;
}

// bench --samples keeps where each pass's buffers lay: every buffer of both output slots and the
// inputs, each at its own address (docs/report.md, cases[].buffer_addresses).
TEST(CliProcess, GpuSamplesRecordEachPassBufferAddresses) {
  if (const std::string why = cuda_device_problem(); !why.empty()) GTEST_SKIP() << why;
  const std::string json = per_process_temp_dir() + "addresses.json";
  const CliRun r = run_cli(
      "bench --case 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=1' --passes 2 "
      "--samples --json '" +
      json + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(slurp(json));
  const nlohmann::json& passes = report.at("cases").at(0).at("buffer_addresses");
  ASSERT_EQ(passes.size(), 2u);
  for (const nlohmann::json& pass : passes) {
    std::set<std::string> seen;
    for (const char* name : {"positions", "slot_mapping", "k_scale", "v_scale", "cos_sin", "qkv_a",
                             "qkv_b", "k_cache_a", "k_cache_b", "v_cache_a", "v_cache_b"}) {
      ASSERT_TRUE(pass.contains(name)) << name << " in " << pass.dump();
      const std::string address = pass.at(name).get<std::string>();
      EXPECT_EQ(address.rfind("0x", 0), 0u) << address;
      EXPECT_NE(address, "0x0") << name;
      EXPECT_TRUE(seen.insert(address).second) << name << " shares " << address;
    }
  }
}

TEST(CliProcess, BadFlagValueIsOneLineAndExitFour) {
  const CliRun r = run_cli("bench --dtype bf61");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("bf61"), std::string::npos) << r.err;
}

TEST(CliProcess, SeedTableDryRunPrintsThePlan) {
  const CliRun r = run_cli("bench --config configs/seed-table.json --dry-run");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 33);  // 32 case ids and the count line
  EXPECT_NE(r.out.find("fp16|fp8_e4m3|32x8x128|neox|nhd|N=2048\n"), std::string::npos);
  EXPECT_NE(r.out.find("32 cases (0 dropped)"), std::string::npos);
}

TEST(CliProcess, ReportRendersTheCommittedH200SeedTable) {
  const CliRun r = run_cli("report results/h200/seed-table.json --format text");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(r.out.find("N=2048"), std::string::npos);
  EXPECT_NE(r.out.find("32x8x128"), std::string::npos);
}

TEST(CliProcess, CompareOfTheTwoCommittedRunsPasses) {
  const CliRun r =
      run_cli("compare results/h200/seed-table.json results/h200/seed-table-run2.json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(CliProcess, CompareOfAMissingReportIsOneLineAndExitFour) {
  const CliRun r = run_cli("compare results/h200/seed-table.json results/h200/no-such-report.json");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no-such-report.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rkv
