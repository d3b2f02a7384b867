// The edge-case axes (misalign, values): their ids, their parsing and the special values' bits.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>
#include "device/special_values.h"
#include "host_numeric.h"
#include "plan/case_spec.h"
#include "plan/sweep_axes.h"
#include "plan/sweep_plan.h"

#include "report/report.h"
#include "report_fixture.h"

namespace rkv {
namespace {

TEST(EdgeAxes, DefaultsLeaveTheIdAsBefore) {
  const CaseSpec c;
  EXPECT_EQ(c.id(), "bf16|auto|32x8x128|neox|nhd|N=1");
}

TEST(EdgeAxes, IdRoundTripsMisalignAndValues) {
  CaseSpec c;
  c.misalign = 6;
  c.values = FillValues::specials;
  c.seed = 3;
  EXPECT_EQ(c.id(), "bf16|auto|32x8x128|neox|nhd|N=1|seed=3|misalign=6|values=specials");
  std::string err;
  const auto back = CaseSpec::parse_id(c.id(), &err);
  ASSERT_TRUE(back) << err;
  EXPECT_EQ(back->misalign, 6);
  EXPECT_EQ(back->values, FillValues::specials);
  EXPECT_EQ(back->id(), c.id());
}

TEST(EdgeAxes, IdRefusesBadValues) {
  std::string err;
  EXPECT_FALSE(CaseSpec::parse_id("bf16|auto|32x8x128|neox|nhd|N=1|misalign=16", &err));
  EXPECT_NE(err.find("misalign"), std::string::npos) << err;
  // 0 is the default and never written, so an id spelling it is not one id() makes.
  EXPECT_FALSE(CaseSpec::parse_id("bf16|auto|32x8x128|neox|nhd|N=1|misalign=0", &err));
  EXPECT_FALSE(CaseSpec::parse_id("bf16|auto|32x8x128|neox|nhd|N=1|values=nan", &err));
  EXPECT_NE(err.find("seeded or specials"), std::string::npos) << err;
}

TEST(EdgeAxes, SweepCrossesBothAxes) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::misalign, "0,2,4,8"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::values, "seeded,specials"));
  const SweepPlan p = plan_sweep(a);
  ASSERT_EQ(p.cases.size(), 8u);
  int specials = 0, misaligned = 0;
  for (const CaseSpec& c : p.cases) {
    specials += c.values == FillValues::specials;
    misaligned += c.misalign != 0;
  }
  EXPECT_EQ(specials, 4);
  EXPECT_EQ(misaligned, 6);
}

TEST(EdgeAxes, SweepRefusesOutOfRange) {
  SweepAxes a;
  const auto err = set_axis_from_list(a, Axis::misalign, "16");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("16"), std::string::npos) << *err;
  EXPECT_TRUE(set_axis_from_list(a, Axis::values, "nans"));
  EXPECT_EQ(a.misalign, std::vector<int>{0});  // unchanged after a refusal
}

// A report's spec carries the two keys only when set, and reads them back.
TEST(EdgeAxes, ReportSpecKeysOnlyWhenSet) {
  CaseSpec plain;
  nlohmann::json j = plain;
  EXPECT_FALSE(j.contains("misalign"));
  EXPECT_FALSE(j.contains("values"));
  CaseSpec edge;
  edge.misalign = 8;
  edge.values = FillValues::specials;
  j = edge;
  EXPECT_EQ(j.at("misalign"), 8);
  EXPECT_EQ(j.at("values"), "specials");
  Report r = testing::base_report();
  CaseResult c = testing::timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 10.0, 8.0);
  c.spec.misalign = 8;
  c.spec.values = FillValues::specials;
  c.id = c.spec.id();
  r.cases.push_back(c);
  const Report back = nlohmann::json::parse(report_to_string(r)).get<Report>();
  ASSERT_EQ(back.cases.size(), 1u);
  EXPECT_EQ(back.cases[0].spec.misalign, 8);
  EXPECT_EQ(back.cases[0].spec.values, FillValues::specials);
}

// Each table entry is what its comment says, in every dtype.
TEST(EdgeAxes, SpecialBitsAreTheNamedValues) {
  // min_normal: the dtype's smallest normal; its subnormals lie below it (fp16's widen to normal
  // floats, so fpclassify cannot tell).
  auto check = [](auto to_float, auto bits_of, float min_normal) {
    EXPECT_TRUE(std::isnan(to_float(bits_of(0))));
    EXPECT_TRUE(std::isnan(to_float(bits_of(1))));
    EXPECT_EQ(to_float(bits_of(2)), INFINITY);
    EXPECT_EQ(to_float(bits_of(3)), -INFINITY);
    EXPECT_EQ(to_float(bits_of(4)), 0.0f);
    EXPECT_FALSE(std::signbit(to_float(bits_of(4))));
    EXPECT_TRUE(std::signbit(to_float(bits_of(5))));
    EXPECT_GT(to_float(bits_of(6)), 0.0f);
    EXPECT_LT(to_float(bits_of(6)), min_normal);
    EXPECT_LT(to_float(bits_of(7)), 0.0f);
    EXPECT_GT(to_float(bits_of(7)), -min_normal);
    EXPECT_TRUE(std::isfinite(to_float(bits_of(8))));
    EXPECT_GT(to_float(bits_of(8)), 60000.0f);
    EXPECT_EQ(to_float(bits_of(9)), -to_float(bits_of(8)));
  };
  check([](std::uint16_t b) { return bf16_to_float(b); },
        [](int k) { return static_cast<std::uint16_t>(special_bits(2, false, k)); }, FLT_MIN);
  check([](std::uint16_t b) { return fp16_to_float(b); },
        [](int k) { return static_cast<std::uint16_t>(special_bits(2, true, k)); },
        6.103515625e-5f);
  check(
      [](std::uint32_t b) {
        float f;
        std::memcpy(&f, &b, 4);
        return f;
      },
      [](int k) { return special_bits(4, false, k); }, FLT_MIN);
}

// fp8 satfinite: the largest finite inputs and the infinities saturate, NaN stays NaN.
TEST(EdgeAxes, Fp8SaturatesSpecials) {
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3_satfinite(INFINITY)), 448.0f);
  EXPECT_EQ(fp8_e4m3_to_float(float_to_fp8_e4m3_satfinite(-3e38f)), -448.0f);
  EXPECT_TRUE(std::isnan(fp8_e4m3_to_float(float_to_fp8_e4m3_satfinite(NAN))));
  EXPECT_EQ(fp8_e5m2_to_float(float_to_fp8_e5m2_satfinite(INFINITY)), 57344.0f);
  EXPECT_TRUE(std::isnan(fp8_e5m2_to_float(float_to_fp8_e5m2_satfinite(NAN))));
}

}  // namespace
}  // namespace rkv
