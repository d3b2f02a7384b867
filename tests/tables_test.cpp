#include "report/tables.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report_fixture.h"

namespace rkv {
namespace {

using testing::base_report;
using testing::timed_case;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// The seed table's shape, shrunk: dtype x cache x tokens {1, 128}, one heads config, graph mode.
Report seed_like() {
  Report r = base_report();
  r.cases = {
      timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 23.1, 10.0),
      timed_case(DType::bf16, CacheDType::auto_, 8, 128, "graph", 15.0, 10.0),
      timed_case(DType::bf16, CacheDType::fp8_e4m3, 8, 1, "graph", 30.0, 10.0),
      timed_case(DType::fp16, CacheDType::auto_, 8, 128, "graph", 12.0, 3.125),
  };
  r.cases[2].validation = Disposition::incorrect;
  return r;
}

TEST(SpeedupTables, MarkdownCells) {
  const std::string md = render_speedup_tables(seed_like(), TableFormat::markdown);
  EXPECT_TRUE(contains(md, "### Speedup")) << md;
  EXPECT_TRUE(contains(md, "mode `graph`")) << md;
  EXPECT_TRUE(contains(md, "| dtype | cache | heads | N=1 | N=128 |\n")) << md;
  EXPECT_TRUE(contains(md, "| --- | --- | --- | ---: | ---: |\n")) << md;
  EXPECT_TRUE(contains(md, "| bf16 | auto | 32x8x128 | 2.31x | 1.50x |\n")) << md;
  EXPECT_TRUE(contains(md, "| bf16 | fp8_e4m3 | 32x8x128 | incorrect | - |\n")) << md;
  EXPECT_TRUE(contains(md, "| fp16 | auto | 32x8x128 | - | 3.84x |\n")) << md;
  // the second table: fused median and % of the measured bandwidth
  EXPECT_TRUE(contains(md, "| fp16 | auto | 32x8x128 | - | 3.12 (41%) |\n")) << md;
  EXPECT_TRUE(contains(md, "| bf16 | auto | 32x8x128 | 10.00 (41%) | 10.00 (41%) |\n")) << md;
}

TEST(SpeedupTables, TextIsAlignedAndNamesTheMode) {
  const std::string text = render_speedup_tables(seed_like(), TableFormat::text);
  const std::vector<std::string> l = lines(text);
  ASSERT_GE(l.size(), 6u);
  EXPECT_TRUE(contains(l[0], "mode graph (CUDA graph replay")) << l[0];
  EXPECT_TRUE(contains(l[0], "NVIDIA H200")) << l[0];
  // Numbers right-aligned under headers padded to the widest cell ("incorrect").
  EXPECT_EQ(l[1], "dtype  cache     heads           N=1  N=128");
  EXPECT_EQ(l[2], "-----  --------  --------  ---------  -----");
  EXPECT_EQ(l[3], "bf16   auto      32x8x128      2.31x  1.50x");
  EXPECT_EQ(l[4], "bf16   fp8_e4m3  32x8x128  incorrect      -");
  // UTF-8 in the title does not upset the column widths of the second table
  EXPECT_TRUE(contains(text, "Fused kernel median µs")) << text;
}

TEST(SpeedupTables, VaryingParametersBecomeRowLabels) {
  Report r = seed_like();
  CaseResult hnd = timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 40.0, 10.0);
  hnd.spec.layout = *CacheLayout::parse("hnd");
  hnd.id = hnd.spec.id();
  r.cases.push_back(hnd);
  const std::string md = render_speedup_tables(r, TableFormat::markdown);
  EXPECT_TRUE(contains(md, "| dtype | cache | heads | layout | N=1 | N=128 |\n")) << md;
  EXPECT_TRUE(contains(md, "| bf16 | auto | 32x8x128 | hnd | 4.00x | - |\n")) << md;
  EXPECT_TRUE(contains(md, "| bf16 | auto | 32x8x128 | nhd | 2.31x | 1.50x |\n")) << md;
  EXPECT_FALSE(contains(md, "| style |")) << md;  // the same everywhere: no column
}

TEST(SpeedupTables, OneTablePairPerMode) {
  Report r = seed_like();
  r.cases.push_back(timed_case(DType::bf16, CacheDType::auto_, 8, 1, "cold", 50.0, 20.0));
  r.complete = false;
  const std::string text = render_speedup_tables(r, TableFormat::text);
  EXPECT_TRUE(contains(text,
                       "Speedup, fused vs rope + cache_write (median pair / median fused), "
                       "mode graph"));
  EXPECT_TRUE(contains(text, "mode cold (cold L2"));
  EXPECT_TRUE(contains(text, "2.50x"));
  EXPECT_TRUE(contains(text, "incomplete"));
  EXPECT_LT(text.find("mode graph"), text.find("mode cold"));  // the report's order
}

TEST(SpeedupTables, ValidateOnlyReportHasNone) {
  Report r = seed_like();
  for (CaseResult& c : r.cases)
    c.mode.clear();
  EXPECT_EQ(render_speedup_tables(r, TableFormat::text), "");
}

// RFC 4180 field split (quotes, doubled quotes), enough to check the CSV's shape.
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        out.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

TEST(Csv, OneRowPerCaseWithEveryStatistic) {
  Report r = seed_like();
  r.cases[0].repro = "rope-kv-bench bench --case 'a,b' --note \"x\"";
  r.cases[3].variants.pop_back();  // no cache_write timing: empty fields
  const std::vector<std::string> l = lines(render_csv(r));
  ASSERT_EQ(l.size(), 1 + r.cases.size());
  const std::vector<std::string> header = split_csv(l[0]);
  EXPECT_EQ(header.size(), 8u + 4 * 11 + 8);
  auto col = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  for (std::size_t i = 1; i < l.size(); ++i)
    EXPECT_EQ(split_csv(l[i]).size(), header.size()) << i;
  const std::vector<std::string> row = split_csv(l[1]);
  EXPECT_EQ(row[col("id")], r.cases[0].id);
  EXPECT_EQ(row[col("mode")], "graph");
  EXPECT_EQ(row[col("disposition")], "passed");
  EXPECT_EQ(row[col("fused_median_us")], "10");
  EXPECT_EQ(row[col("pair_q3_us")], "23.150000000000002");  // shortest round-trip text
  EXPECT_EQ(row[col("fused_n")], "50");
  EXPECT_EQ(row[col("speedup")], "2.31");
  EXPECT_EQ(row[col("fused_pct_of_bandwidth")], "41.4");
  EXPECT_EQ(row[col("repro")], r.cases[0].repro);
  const std::vector<std::string> last = split_csv(l[4]);
  EXPECT_EQ(last[col("cache_write_median_us")], "");
  EXPECT_EQ(last[col("rope_median_us")], "7.199999999999999");
}

TEST(ValidationTable, OneRowPerCaseAndCounts) {
  Report r = seed_like();
  r.cases.push_back(r.cases[0]);  // the same case in another mode
  r.cases.back().mode = "cold";
  r.cases[2].mismatches = 7;
  r.cases[2].first_mismatch = "q token 0 head 3 dim 5";
  r.cases[3].validation = Disposition::not_supported;
  r.cases[3].detail = "no vector width divides head size 80";
  const std::string text = render_validation_table(r, TableFormat::text);
  const std::vector<std::string> l = lines(text);
  ASSERT_EQ(l.size(), 2u + 4 + 1);
  EXPECT_TRUE(contains(l[4], "incorrect")) << l[4];
  EXPECT_TRUE(contains(l[4], "q token 0 head 3 dim 5")) << l[4];
  EXPECT_TRUE(contains(l[5], "no vector width")) << l[5];
  EXPECT_EQ(l.back(), "4 cases: 2 passed 1 incorrect 1 not_supported");

  const std::string md = render_validation_table(r, TableFormat::markdown);
  EXPECT_TRUE(contains(md, "| `bf16\\|auto\\|32x8x128\\|neox\\|nhd\\|N=1` | passed | 0 |  |\n"))
      << md;
}

TEST(RenderTable, PerColumnAlignment) {
  const std::string t = render_table({"a", "n", "why"}, {{"x", "1", "left"}, {"yy", "22", "l"}},
                                     std::vector<bool>{true, false, true}, TableFormat::text);
  EXPECT_EQ(t, "a    n  why\n--  --  ----\nx    1  left\nyy  22  l\n");
}

}  // namespace
}  // namespace rkv
