// Axis parsing and the planner's expansion, order, drops and dedupe.
#include "plan/sweep_plan.h"

#include <gtest/gtest.h>

namespace rkv {
namespace {

// The range syntax itself is tested with the text module (text_test.cpp).
using Ints = std::vector<std::int64_t>;

TEST(SetAxis, ListsOfValuesAndRanges) {
  SweepAxes a;
  EXPECT_FALSE(set_axis_from_list(a, Axis::tokens, "1,8,pow2:16:64,100:300:100"));
  EXPECT_EQ(a.tokens, (Ints{1, 8, 16, 32, 64, 100, 200, 300}));
  EXPECT_FALSE(set_axis_from_list(a, Axis::dtype, "fp16,bf16"));
  EXPECT_EQ(a.dtype, (std::vector<DType>{DType::fp16, DType::bf16}));
  EXPECT_FALSE(set_axis_from_list(a, Axis::rot_dim, "full,half,16:32:16"));
  ASSERT_EQ(a.rot_dim.size(), 4u);
  EXPECT_EQ(a.rot_dim[0].kind, RotDim::Kind::full);
  EXPECT_EQ(a.rot_dim[1].kind, RotDim::Kind::half);
  EXPECT_EQ(a.rot_dim[3].name(), "32");
  EXPECT_FALSE(set_axis_from_list(a, Axis::layout, "nhd,packed_hnd,hbs,packed_sbh"));
  EXPECT_EQ(axis_value_names(a, Axis::layout),
            (std::vector<std::string>{"nhd", "packed_hnd", "hbs", "packed_sbh"}));
  EXPECT_FALSE(set_axis_from_list(a, Axis::cos_sin, "fp32,scalar"));
  EXPECT_EQ(a.cos_sin_fp32, (std::vector<bool>{true, false}));
  EXPECT_FALSE(set_axis_from_list(a, Axis::heads, "32x8x128,mla:16"));
  EXPECT_EQ(axis_value_names(a, Axis::heads), (std::vector<std::string>{"32x8x128", "mla:16"}));
  EXPECT_FALSE(set_axis_from_list(a, Axis::block_size, "pow2:1:1024"));
  EXPECT_EQ(a.block_size.size(), 11u);
  EXPECT_FALSE(set_axis_from_list(a, Axis::seed, "0:3"));
  EXPECT_EQ(a.seed, (std::vector<std::uint64_t>{0, 1, 2, 3}));
}

TEST(SetAxis, BadValuesNameTheValue) {
  SweepAxes a;
  auto err = [&a](Axis axis, const std::string& text) {
    return set_axis_from_list(a, axis, text).value_or("(accepted)");
  };
  EXPECT_EQ(err(Axis::dtype, "bf16,bf61"), "'bf61' is not a dtype (one of bf16, fp16, fp32)");
  EXPECT_EQ(err(Axis::heads, "32x7x128"),
            "32x7x128: 32 query heads are not a multiple of 7 kv heads");
  EXPECT_EQ(err(Axis::rot_dim, "63"), "'63' is odd; a rotary dim must be even");
  EXPECT_EQ(err(Axis::rot_dim, "60:64:1"), "'60:64:1': 61 is odd; a rotary dim must be even");
  EXPECT_EQ(err(Axis::rot_dim, "0"), "'0' is out of range (2 to 512)");
  EXPECT_EQ(err(Axis::tokens, "0"), "'0' is out of range (1 to 1048576)");
  EXPECT_EQ(err(Axis::tokens, "0:8:4"), "'0:8:4': 0 is out of range (1 to 1048576)");
  EXPECT_EQ(err(Axis::block_size, "2048"), "'2048' is out of range (1 to 1024)");
  EXPECT_EQ(err(Axis::dtype, "bf16,,fp16"), "'bf16,,fp16' has an empty value");
  EXPECT_NE(err(Axis::layout, "nhh").find("'nhh' is not a cache layout"), std::string::npos);
  EXPECT_NE(err(Axis::heads, "32x8").find("'32x8' is not a head config"), std::string::npos);
  EXPECT_NE(err(Axis::slots, "none").find("'none' is not a slot mode (one of mixed, padded"),
            std::string::npos);
  // A failed set leaves the axis as it was.
  EXPECT_EQ(a.dtype, std::vector<DType>{DType::bf16});
  EXPECT_EQ(a.tokens, Ints{1});
}

TEST(AxisTable, CoversEveryAxisOnceWithDistinctKeysAndFlags) {
  EXPECT_EQ(axis_infos().size(), 16u);
  for (const AxisInfo& a : axis_infos()) {
    EXPECT_EQ(find_axis_by_key(a.key), &a);
    EXPECT_EQ(axis_info(a.axis).key, a.key);
    std::string flag = std::string("--") + a.key;  // the flag is the key with '-' for '_'
    for (char& ch : flag)
      if (ch == '_') ch = '-';
    EXPECT_EQ(flag, a.flag);
  }
  EXPECT_EQ(find_axis_by_key("dtypes"), nullptr);
}

std::vector<std::string> ids(const SweepPlan& p) {
  std::vector<std::string> out;
  for (const CaseSpec& c : p.cases)
    out.push_back(c.id());
  return out;
}

TEST(Plan, DefaultsAreOneCase) {
  const SweepPlan p = plan_sweep(SweepAxes{});
  EXPECT_EQ(ids(p), std::vector<std::string>{"bf16|auto|32x8x128|neox|nhd|N=1"});
  EXPECT_TRUE(p.dropped.empty());
}

TEST(Plan, ProductCountAndOuterToInnerOrder) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::dtype, "bf16,fp16"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::heads, "32x32x128,32x8x128"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::style, "neox,gptj"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "1,8,128"));
  const SweepPlan p = plan_sweep(a);
  ASSERT_EQ(p.cases.size(), 24u);
  EXPECT_EQ(p.cases[0].id(), "bf16|auto|32x32x128|neox|nhd|N=1");
  EXPECT_EQ(p.cases[1].id(), "bf16|auto|32x32x128|neox|nhd|N=8");
  EXPECT_EQ(p.cases[3].id(), "bf16|auto|32x32x128|gptj|nhd|N=1");
  EXPECT_EQ(p.cases[6].id(), "bf16|auto|32x8x128|neox|nhd|N=1");
  EXPECT_EQ(p.cases[12].id(), "fp16|auto|32x32x128|neox|nhd|N=1");
  EXPECT_EQ(p.cases[23].id(), "fp16|auto|32x8x128|gptj|nhd|N=128");
}

TEST(Plan, InnerAxesNestInTheDocumentedOrder) {
  // Two values on each of the ten inner axes: the case index's bits, low to high, are tokens,
  // seed, block_size, cos_sin, key_out, query_out, slots, scale, layout, rot_dim.
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::cache_dtype, "fp8_e4m3"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::rot_dim, "full,half"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::layout, "nhd,hnd"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::scale, "tensor,head"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::slots, "mixed,padded"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::query_out, "inplace,separate"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::key_out, "writeback,cache_only"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::cos_sin, "scalar,fp32"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::block_size, "16,32"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::seed, "0,1"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "8,16"));
  const SweepPlan p = plan_sweep(a);
  ASSERT_EQ(p.cases.size(), 1024u);
  EXPECT_TRUE(p.dropped.empty());
  const std::string base = "bf16|fp8_e4m3|32x8x128|neox|";
  EXPECT_EQ(p.cases[0].id(), base + "nhd|N=8");
  EXPECT_EQ(p.cases[1].id(), base + "nhd|N=16");
  EXPECT_EQ(p.cases[2].id(), base + "nhd|N=8|seed=1");
  EXPECT_EQ(p.cases[4].id(), base + "nhd|N=8|bs=32");
  EXPECT_EQ(p.cases[8].id(), base + "nhd|N=8|cs=fp32");
  EXPECT_EQ(p.cases[16].id(), base + "nhd|N=8|kout=cache_only");
  EXPECT_EQ(p.cases[32].id(), base + "nhd|N=8|qout=separate");
  EXPECT_EQ(p.cases[64].id(), base + "nhd|N=8|slots=padded");
  EXPECT_EQ(p.cases[128].id(), base + "nhd|N=8|scale=head");
  EXPECT_EQ(p.cases[256].id(), base + "hnd|N=8");
  EXPECT_EQ(p.cases[512].id(), base + "nhd|N=8|rot=64");
}

TEST(Plan, RotDimResolvesPerHeadSizeAndDedupes) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::heads, "32x8x128,16x2x64"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::rot_dim, "full,half,64"));
  const SweepPlan p = plan_sweep(a);
  // 128: full, half (= 64), 64 (same as half); 64: full, half (= 32), 64 (same as full).
  EXPECT_EQ(ids(p), (std::vector<std::string>{
                        "bf16|auto|32x8x128|neox|nhd|N=1",
                        "bf16|auto|32x8x128|neox|nhd|N=1|rot=64",
                        "bf16|auto|16x2x64|neox|nhd|N=1",
                        "bf16|auto|16x2x64|neox|nhd|N=1|rot=32",
                    }));
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_EQ(p.cases[1].rot_dim, 64);
  EXPECT_EQ(p.cases[0].rot_dim, 0);
}

TEST(Plan, DuplicatesAreRemovedQuietlyKeepingTheFirst) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "8,1,8"));
  SweepAxes extra;
  ASSERT_FALSE(set_axis_from_list(extra, Axis::tokens, "1,7"));
  const SweepPlan p = plan_sweep(a, {extra});
  EXPECT_EQ(ids(p), (std::vector<std::string>{"bf16|auto|32x8x128|neox|nhd|N=8",
                                              "bf16|auto|32x8x128|neox|nhd|N=1",
                                              "bf16|auto|32x8x128|neox|nhd|N=7"}));
  EXPECT_TRUE(p.dropped.empty());
}

std::string drop_reason(SweepAxes a) {
  const SweepPlan p = plan_sweep(a);
  EXPECT_TRUE(p.cases.empty());
  return p.dropped.empty() ? "(none)" : p.dropped[0].second;
}

TEST(Plan, ImpossibleCombinationsAreDroppedWithAReason) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::heads, "16x2x64"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::rot_dim, "128"));
  EXPECT_EQ(drop_reason(a), "rot_dim 128 is larger than the head size 64");

  SweepAxes half;
  half.heads = {*HeadConfig::parse("32x8x90")};
  half.rot_dim = {RotDim{RotDim::Kind::half, 0}};
  EXPECT_EQ(drop_reason(half), "rot_dim half of head size 90 is 45, which is odd");

  SweepAxes scale;
  scale.scale = {ScaleKind::per_head};
  EXPECT_EQ(drop_reason(scale),
            "per-head scale needs an fp8 cache (an auto cache copies bits and uses no scale)");

  SweepAxes mla_layout;
  mla_layout.heads = {*HeadConfig::parse("mla:16")};
  mla_layout.layout = {*CacheLayout::parse("packed_nhd")};
  EXPECT_EQ(drop_reason(mla_layout),
            "MLA has one cache layout, [num_blocks, block_size, 576], planned as nhd");

  SweepAxes mla_scale = mla_layout;
  mla_scale.layout = {CacheLayout{}};
  mla_scale.cache_dtype = {CacheDType::fp8_e4m3};
  mla_scale.scale = {ScaleKind::per_head};
  EXPECT_EQ(drop_reason(mla_scale), "MLA has one per-tensor scale");

  SweepAxes mla_rot;
  mla_rot.heads = {*HeadConfig::parse("mla:16")};
  mla_rot.rot_dim = {RotDim{RotDim::Kind::value, 128}};
  EXPECT_EQ(drop_reason(mla_rot), "rot_dim 128 is larger than MLA's 64 rope dims");

  SweepAxes padded;
  padded.slots = {SlotMode::padded};
  EXPECT_EQ(drop_reason(padded), "slots=padded needs at least 2 tokens (T > Tc)");

  SweepAxes rope_only;
  rope_only.slots = {SlotMode::rope_only};
  rope_only.key_out = {KeyOut::cache_only};
  EXPECT_EQ(drop_reason(rope_only),
            "kout=cache_only with slots=rope_only would discard the rotated keys");

  SweepAxes bad_heads;  // the planner is a library too: it does not trust its input
  bad_heads.heads = {*HeadConfig::parse("32x7x128")};
  EXPECT_EQ(drop_reason(bad_heads), "32x7x128: 32 query heads are not a multiple of 7 kv heads");
}

TEST(Plan, DropsKeepTheRestOfTheProduct) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::cache_dtype, "auto,fp8_e4m3"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::scale, "tensor,head"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::slots, "mixed,padded"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "1,8"));
  const SweepPlan p = plan_sweep(a);
  // 16 combinations; auto+head drops 4, padded+N=1 drops 3 more (the 4th is auto+head).
  EXPECT_EQ(p.cases.size(), 9u);
  EXPECT_EQ(p.dropped.size(), 7u);
  EXPECT_EQ(p.dropped[0].first, "bf16|auto|32x8x128|neox|nhd|N=1|slots=padded");
  EXPECT_EQ(p.dropped[1].first, "bf16|auto|32x8x128|neox|nhd|N=1|scale=head");
}

TEST(Plan, ExtraCasesFollowTheMainProductInOrder) {
  SweepAxes main;
  ASSERT_FALSE(set_axis_from_list(main, Axis::tokens, "1,2"));
  SweepAxes e1, e2;
  ASSERT_FALSE(set_axis_from_list(e1, Axis::slots, "padded"));
  ASSERT_FALSE(set_axis_from_list(e1, Axis::tokens, "7"));
  ASSERT_FALSE(set_axis_from_list(e2, Axis::heads, "mla:16"));
  ASSERT_FALSE(set_axis_from_list(e2, Axis::style, "neox,gptj"));
  EXPECT_EQ(ids(plan_sweep(main, {e1, e2})),
            (std::vector<std::string>{
                "bf16|auto|32x8x128|neox|nhd|N=1", "bf16|auto|32x8x128|neox|nhd|N=2",
                "bf16|auto|32x8x128|neox|nhd|N=7|slots=padded", "bf16|auto|mla:16|neox|nhd|N=1",
                "bf16|auto|mla:16|gptj|nhd|N=1"}));
}

TEST(Plan, CaseProblemAgreesWithThePlanner) {
  EXPECT_FALSE(case_problem(CaseSpec{}));
  CaseSpec c;
  c.rot_dim = 7;
  EXPECT_EQ(case_problem(c).value_or(""), "rot_dim 7 is odd");
  c.rot_dim = 130;
  EXPECT_EQ(case_problem(c).value_or(""), "rot_dim 130 is larger than the head size 128");
  c.rot_dim = 0;
  c.tokens = 0;
  EXPECT_EQ(case_problem(c).value_or(""), "tokens must be at least 1");
}

TEST(Plan, FilterKeepsMatchingIds) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::cache_dtype, "auto,fp8_e4m3,fp8_e5m2"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "1,8"));
  SweepPlan p = plan_sweep(a);
  filter_plan(p, "fp8_e");
  EXPECT_EQ(p.cases.size(), 4u);
  filter_plan(p, "N=8");
  EXPECT_EQ(ids(p), (std::vector<std::string>{"bf16|fp8_e4m3|32x8x128|neox|nhd|N=8",
                                              "bf16|fp8_e5m2|32x8x128|neox|nhd|N=8"}));
}

TEST(Plan, FormatPlanListsCasesDropsAndCount) {
  SweepAxes a;
  ASSERT_FALSE(set_axis_from_list(a, Axis::heads, "32x8x128,16x2x64"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::rot_dim, "96"));
  EXPECT_EQ(format_plan(plan_sweep(a)),
            "bf16|auto|32x8x128|neox|nhd|N=1|rot=96\n"
            "dropped bf16|auto|16x2x64|neox|nhd|N=1|rot=96: rot_dim 96 is larger than the head "
            "size 64\n"
            "1 case (1 dropped)\n");
  ASSERT_FALSE(set_axis_from_list(a, Axis::tokens, "1,2"));
  ASSERT_FALSE(set_axis_from_list(a, Axis::heads, "32x8x128"));
  EXPECT_EQ(format_plan(plan_sweep(a)),
            "bf16|auto|32x8x128|neox|nhd|N=1|rot=96\n"
            "bf16|auto|32x8x128|neox|nhd|N=2|rot=96\n"
            "2 cases (0 dropped)\n");
}

}  // namespace
}  // namespace rkv
