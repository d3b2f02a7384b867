// The producer modes' rows as `bench` assembles them (add_bench_rows over raw samples, the same
// code path as a GPU run): the producer-alone time is carried per variant, a speedup is made only
// when both added times are resolved, negative added times read back, and fused_gbps stays 0.
// CTest runs it once more with RKV_PDL_REPORT set: the file it writes is what the schema test and
// scripts/pdl_table.py's test read (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report/tables.h"
#include "report_fixture.h"
#include "run/bench_report.h"
#include "temp_paths.h"

namespace rkv {
namespace {

// `n` samples around `median` (a small symmetric spread), each with producer-alone `producer_us`.
VariantSamples samples(const std::string& variant, double median, double producer_us, int n = 40) {
  VariantSamples s;
  s.variant = variant;
  for (int i = 0; i < n; ++i) {
    s.us.push_back(median + 0.002 * ((i % 5) - 2));
    s.sm_clock_mhz.push_back(1980);
    s.producer_us.push_back(producer_us + 0.01 * (i % 3));
  }
  s.stop = StopReason::timeout;
  return s;
}

// One case's passes in one mode: fused and pair added times, rope and cache_write from them.
std::vector<std::vector<VariantSamples>> mode_passes(double fused, double pair, double producer,
                                                     int passes) {
  std::vector<std::vector<VariantSamples>> out;
  for (int p = 0; p < passes; ++p)
    out.push_back({samples("fused", fused, producer), samples("pair", pair, producer),
                   samples("rope", pair * 0.55, producer),
                   samples("cache_write", pair * 0.5, producer)});
  return out;
}

struct Added {
  const char* heads;
  CacheDType cache;
  std::int64_t tokens;
  double producer, fused, fused_pdl, pair, pair_pdl;
  double floor, floor_pdl;  // what a consumer that only waits adds (producer_floor_us)
  double copy_floor,
      copy_floor_pdl;  // ... one that also copies its output (producer_copy_floor_us)
};

// What a PDL run could look like: at N=1 the fused kernel's added time with PDL is ~0 or below.
const std::vector<Added>& added_times() {
  static const std::vector<Added> a = {
      {"32x8x128", CacheDType::auto_, 1, 2.1, 1.3, -0.02, 2.6, 1.1, 0.71, 0.95, 1.21, 1.17},
      {"32x8x128", CacheDType::fp8_e4m3, 1, 2.1, 1.6, 0.04, 2.9, 1.3, 0.72, 0.97, 1.23, 1.19},
      {"32x8x128", CacheDType::auto_, 2048, 14.0, 9.5, 8.9, 16.1, 15.0, 0.8, 1.02, 1.3, 1.25},
      {"32x32x128", CacheDType::auto_, 128, 3.0, 1.8, 0.9, 3.2, 2.1, 0.74, 0.99, 1.24, 1.2},
  };
  return a;
}

Report pdl_report() {
  Report r = testing::base_report();
  r.timing.modes = {TimingMode::producer, TimingMode::producer_pdl};
  r.timing.passes = 3;
  r.device.launch_floor_us = {{"producer", 0.71}, {"producer_pdl", 0.70}};
  std::vector<BenchCase> cases;
  for (const Added& a : added_times()) {
    BenchCase c;
    c.base.spec.heads = *HeadConfig::parse(a.heads);
    c.base.spec.cache_dtype = a.cache;
    c.base.spec.tokens = a.tokens;
    c.base.id = c.base.spec.id();
    c.base.validation = Disposition::passed;
    c.base.min_bytes = 1000 * a.tokens;
    c.base.repro = "rope-kv-bench bench " + c.base.spec.repro_args();
    c.timed = true;
    c.slots = {SlotAssignment::straight(), SlotAssignment::swapped(), SlotAssignment::straight()};
    c.samples = {mode_passes(a.fused, a.pair, a.producer, 3),
                 mode_passes(a.fused_pdl, a.pair_pdl, a.producer, 3)};
    // Per pass, the middle value not first: the row must take the median, not a pass.
    c.producer_floor_us = {{a.floor + 0.04, a.floor, a.floor - 0.03},
                           {a.floor_pdl - 0.02, a.floor_pdl + 0.05, a.floor_pdl}};
    c.producer_copy_floor_us = {
        {a.copy_floor, a.copy_floor + 0.06, a.copy_floor - 0.01},
        {a.copy_floor_pdl + 0.02, a.copy_floor_pdl - 0.04, a.copy_floor_pdl}};
    cases.push_back(std::move(c));
  }
  add_bench_rows(r, cases, r.timing, false);
  return r;
}

const CaseResult& row(const Report& r, std::size_t added_index, const char* mode) {
  const std::string id = r.cases.at(2 * added_index).id;
  for (const CaseResult& c : r.cases)
    if (c.id == id && c.mode == mode) return c;
  throw std::logic_error("no row");
}

TEST(PdlReport, RowsCarryTheProducerTimeAndResolvedSpeedupsOnly) {
  const Report r = pdl_report();
  ASSERT_EQ(r.cases.size(), 2 * added_times().size());
  for (const CaseResult& c : r.cases) {
    ASSERT_EQ(c.variants.size(), 4u) << c.id;
    for (const VariantResult& v : c.variants) {
      ASSERT_TRUE(v.producer_us.has_value()) << c.id << " " << v.variant;
      EXPECT_GT(v.producer_us->median, 1.0);
      EXPECT_EQ(v.producer_us->n, 120);  // every sample of three passes
    }
    EXPECT_EQ(c.fused_gbps, 0) << c.id;  // bytes over an added time mean nothing
    EXPECT_EQ(c.fused_pct_of_bandwidth, 0) << c.id;
  }
  // N=1 with PDL: the fused kernel adds ~0 (below, and just above, zero): no ratio.
  EXPECT_FALSE(row(r, 0, "producer_pdl").speedup.has_value());
  EXPECT_FALSE(row(r, 1, "producer_pdl").speedup.has_value());
  EXPECT_LT(row(r, 0, "producer_pdl").find_variant(Variant::fused)->us.median, 0);
  // Both resolved: added pair / added fused.
  ASSERT_TRUE(row(r, 0, "producer").speedup.has_value());
  EXPECT_NEAR(row(r, 0, "producer").speedup->median, 2.6 / 1.3, 1e-6);
  ASSERT_TRUE(row(r, 3, "producer_pdl").speedup.has_value());
  EXPECT_NEAR(row(r, 3, "producer_pdl").speedup->median, 2.1 / 0.9, 1e-6);
}

// The tables' titles say which producer the added times follow.
TEST(PdlReport, TablesNameTheProducer) {
  Report r = pdl_report();
  r.timing.producer_read_mib = 0;
  const std::string plain = render_speedup_tables(r, TableFormat::text);
  EXPECT_NE(plain.find("time added after a producer of q/k/v in a CUDA graph, launched with PDL"),
            std::string::npos)
      << plain;
  EXPECT_EQ(plain.find("stand-in weights"), std::string::npos) << plain;
  r.timing.producer_read_mib = 48;
  const std::string weights = render_speedup_tables(r, TableFormat::text);
  EXPECT_NE(weights.find("time added after a producer that streams 48 MiB of stand-in weights, "
                         "then writes q/k/v in a CUDA graph (speedup"),
            std::string::npos)
      << weights;
}

TEST(PdlReport, RowsCarryTheMedianOfTheirPassesFloors) {
  const Report r = pdl_report();
  for (std::size_t i = 0; i < added_times().size(); ++i) {
    const Added& a = added_times()[i];
    ASSERT_TRUE(row(r, i, "producer").producer_floor_us.has_value());
    EXPECT_DOUBLE_EQ(*row(r, i, "producer").producer_floor_us, a.floor);
    ASSERT_TRUE(row(r, i, "producer_pdl").producer_floor_us.has_value());
    EXPECT_DOUBLE_EQ(*row(r, i, "producer_pdl").producer_floor_us, a.floor_pdl);
    ASSERT_TRUE(row(r, i, "producer").producer_copy_floor_us.has_value());
    EXPECT_DOUBLE_EQ(*row(r, i, "producer").producer_copy_floor_us, a.copy_floor);
    ASSERT_TRUE(row(r, i, "producer_pdl").producer_copy_floor_us.has_value());
    EXPECT_DOUBLE_EQ(*row(r, i, "producer_pdl").producer_copy_floor_us, a.copy_floor_pdl);
  }
}

TEST(PdlReport, NoFloorMeasuredMeansNoKey) {
  BenchCase c;
  c.base.spec.heads = *HeadConfig::parse("32x8x128");
  c.base.id = c.base.spec.id();
  c.base.validation = Disposition::passed;
  c.timed = true;
  c.slots = {SlotAssignment::straight()};
  c.samples = {mode_passes(1.5, 3.0, 2.0, 1)};  // graph-like: no floors taken
  const CaseResult r = case_row(c, 0, TimingMode::graph, testing::base_report().device, false);
  EXPECT_FALSE(r.producer_floor_us.has_value());
  EXPECT_FALSE(r.producer_copy_floor_us.has_value());
  EXPECT_FALSE(nlohmann::json(r).contains("producer_floor_us"));
  EXPECT_FALSE(nlohmann::json(r).contains("producer_copy_floor_us"));
  c.producer_floor_us = {{0.9}};
  c.producer_copy_floor_us = {{1.3}};
  const CaseResult with =
      case_row(c, 0, TimingMode::producer_pdl, testing::base_report().device, false);
  ASSERT_TRUE(with.producer_floor_us.has_value());
  EXPECT_EQ(nlohmann::json(with).at("producer_floor_us").get<double>(), 0.9);
  EXPECT_EQ(nlohmann::json(with).at("producer_copy_floor_us").get<double>(), 1.3);
}

TEST(PdlReport, ResolvedMeansEveryLowerQuartileAboveTheFloor) {
  VariantResult v;
  v.us = testing::summary_around(0.5, 0.01);
  v.passes = {testing::summary_around(0.5, 0.01), testing::summary_around(0.5, 0.01)};
  EXPECT_TRUE(added_time_resolved(v));
  v.passes[1] = testing::summary_around(kMinAddedUsForSpeedup, 0.01);  // q1 just below
  EXPECT_FALSE(added_time_resolved(v));
  v.passes.pop_back();
  v.us.q1 = -0.01;
  EXPECT_FALSE(added_time_resolved(v));
}

TEST(PdlReport, WrittenReportReadsBackUnchanged) {
  const Report r = pdl_report();
  const char* env = std::getenv("RKV_PDL_REPORT");
  const std::string path = env && *env ? std::string(env) : per_process_temp_dir() + "pdl.json";
  write_report_atomically(r, path);
  const Report back = read_report(path);
  EXPECT_EQ(nlohmann::json(back).dump(), nlohmann::json(r).dump());
}

TEST(PdlReport, ANegativeTimeIsRefusedOutsideTheProducerModes) {
  nlohmann::json j = pdl_report();
  ASSERT_EQ(j["cases"][1]["mode"], "producer_pdl");  // N=1: the fused kernel adds -0.02 us
  j["cases"][1]["mode"] = "warm";
  const std::string path = per_process_temp_dir() + "pdl-negative.json";
  std::ofstream(path) << j.dump();
  try {
    (void)read_report(path);
    FAIL() << "a negative time in warm mode was accepted";
  } catch (const ReportFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("is negative"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rkv
