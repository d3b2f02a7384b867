// CaseSpec's text forms: enum names, head configs, the case id and its inverse.
#include "plan/case_spec.h"

#include <gtest/gtest.h>

#include "plan/sweep_axes.h"
#include "plan/timing_options.h"

namespace rkv {
namespace {

TEST(EnumNames, EveryNameParsesBackToItsValue) {
  for (const std::string& n : dtype_names())
    EXPECT_EQ(to_string(*parse_dtype(n)), n);
  for (const std::string& n : cache_dtype_names())
    EXPECT_EQ(to_string(*parse_cache_dtype(n)), n);
  for (const std::string& n : style_names())
    EXPECT_EQ(to_string(*parse_style(n)), n);
  for (const std::string& n : slot_mode_names())
    EXPECT_EQ(to_string(*parse_slot_mode(n)), n);
  for (const std::string& n : scale_kind_names())
    EXPECT_EQ(to_string(*parse_scale_kind(n)), n);
  for (const std::string& n : query_out_names())
    EXPECT_EQ(to_string(*parse_query_out(n)), n);
  for (const std::string& n : key_out_names())
    EXPECT_EQ(to_string(*parse_key_out(n)), n);
  for (const std::string& n : timing_mode_names())
    EXPECT_EQ(to_string(*parse_timing_mode(n)), n);
}

TEST(EnumNames, ExactNames) {
  EXPECT_EQ(dtype_names(), (std::vector<std::string>{"bf16", "fp16", "fp32"}));
  EXPECT_EQ(cache_dtype_names(), (std::vector<std::string>{"auto", "fp8_e4m3", "fp8_e5m2"}));
  EXPECT_EQ(slot_mode_names(),
            (std::vector<std::string>{"mixed", "padded", "all_invalid", "rope_only"}));
  EXPECT_EQ(timing_mode_names(), (std::vector<std::string>{"cold", "warm", "graph", "wall",
                                                           "producer", "producer_pdl"}));
  EXPECT_EQ(to_string(ScaleKind::per_head), "head");
  EXPECT_EQ(to_string(CacheDType::auto_), "auto");
  EXPECT_EQ(to_string(TimingMode::graph), "graph");
}

TEST(EnumNames, EveryTimingModeRoundTripsAndOnlyTheProducerModesAddTime) {
  for (const std::string& name : timing_mode_names()) {
    const std::optional<TimingMode> m = parse_timing_mode(name);
    ASSERT_TRUE(m) << name;
    EXPECT_EQ(to_string(*m), name);
    EXPECT_EQ(is_producer_mode(*m), name == "producer" || name == "producer_pdl") << name;
    EXPECT_EQ(launches_with_pdl(*m), name == "producer_pdl") << name;
  }
  EXPECT_FALSE(parse_timing_mode("producer-pdl"));
  EXPECT_FALSE(parse_timing_mode("pdl"));
}

TEST(EnumNames, AliasesAndRejects) {
  EXPECT_EQ(parse_cache_dtype("fp8"), CacheDType::fp8_e4m3);  // vLLM's "fp8"
  EXPECT_FALSE(parse_dtype("bf61"));
  EXPECT_FALSE(parse_dtype("BF16"));
  EXPECT_FALSE(parse_dtype(""));
  EXPECT_FALSE(parse_style("gpt-j"));
  EXPECT_FALSE(parse_scale_kind("per_head"));
  EXPECT_FALSE(parse_timing_mode("hot"));
}

TEST(Bytes, DtypeAndCache) {
  EXPECT_EQ(dtype_bytes(DType::bf16), 2u);
  EXPECT_EQ(dtype_bytes(DType::fp16), 2u);
  EXPECT_EQ(dtype_bytes(DType::fp32), 4u);
  EXPECT_EQ(cache_elem_bytes(CacheDType::auto_, DType::fp32), 4u);
  EXPECT_EQ(cache_elem_bytes(CacheDType::auto_, DType::bf16), 2u);
  EXPECT_EQ(cache_elem_bytes(CacheDType::fp8_e4m3, DType::fp32), 1u);
  EXPECT_EQ(cache_elem_bytes(CacheDType::fp8_e5m2, DType::bf16), 1u);
}

TEST(HeadConfig, ParsesGqaShape) {
  const auto h = HeadConfig::parse("32x8x128");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->num_q_heads, 32);
  EXPECT_EQ(h->num_kv_heads, 8);
  EXPECT_EQ(h->head_size, 128);
  EXPECT_FALSE(h->mla);
  EXPECT_EQ(h->name(), "32x8x128");
  EXPECT_FALSE(h->problem());
  EXPECT_EQ(h->q_head_size(), 128);
  EXPECT_EQ(h->kv_heads(), 8);
}

TEST(HeadConfig, ParsesMla) {
  const auto h = HeadConfig::parse("mla:16");
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->mla);
  EXPECT_EQ(h->num_q_heads, 16);
  EXPECT_EQ(h->kv_heads(), 1);
  EXPECT_EQ(h->q_head_size(), 192);
  EXPECT_EQ(h->k_head_size(), 64);
  EXPECT_EQ(h->v_head_size(), 512);
  EXPECT_EQ(h->name(), "mla:16");
  EXPECT_FALSE(h->problem());
}

TEST(HeadConfig, RejectsMalformedText) {
  for (const char* bad :
       {"", "32x8", "32x8x128x2", "axbxc", "32x8x", "x8x128", " 32x8x128", "32x8x128 ", "32X8X128",
        "32x8x+128", "32x8x0x", "mla:", "mla:x", "mla16", "mla:16:2", "99999999999x1x128"})
    EXPECT_FALSE(HeadConfig::parse(bad)) << bad;
}

TEST(HeadConfig, ProblemsNameTheConfigAndTheReason) {
  auto problem = [](const char* text) { return HeadConfig::parse(text)->problem().value_or(""); };
  EXPECT_EQ(problem("32x7x128"), "32x7x128: 32 query heads are not a multiple of 7 kv heads");
  EXPECT_EQ(problem("32x8x127"), "32x8x127: head size 127 is not a multiple of 2");
  EXPECT_EQ(problem("32x8x1024"), "32x8x1024: head size 1024 is larger than 512");
  EXPECT_EQ(problem("0x8x128"), "0x8x128: query heads must be positive");
  EXPECT_EQ(problem("32x0x128"), "32x0x128: kv heads must be positive");
  EXPECT_EQ(problem("32x-8x128"), "32x-8x128: kv heads must be positive");
  EXPECT_EQ(problem("32x8x0"), "32x8x0: head size must be positive");
  EXPECT_EQ(problem("mla:0"), "mla:0: query heads must be positive");
  EXPECT_EQ(problem("2048x8x128"), "2048x8x128: 2048 query heads is more than 1024");
  EXPECT_EQ(problem("32x32x512"), "");  // the largest head size allowed
  EXPECT_EQ(problem("8x1x2"), "");
}

CaseSpec every_option_changed() {
  CaseSpec c;
  c.dtype = DType::fp16;
  c.cache_dtype = CacheDType::fp8_e5m2;
  c.heads = *HeadConfig::parse("32x1x128");
  c.style = RopeStyle::gptj;
  c.rot_dim = 64;
  c.layout = *CacheLayout::parse("packed_hbs");
  c.tokens = 7;
  c.block_size = 32;
  c.scale = ScaleKind::per_head;
  c.slots = SlotMode::padded;
  c.query_out = QueryOut::separate;
  c.key_out = KeyOut::cache_only;
  c.cos_sin_fp32 = true;
  c.seed = 42;
  return c;
}

TEST(CaseId, DefaultsLeaveOutEveryOption) {
  CaseSpec c;
  EXPECT_EQ(c.id(), "bf16|auto|32x8x128|neox|nhd|N=1");
  c.cache_dtype = CacheDType::fp8_e4m3;
  c.tokens = 128;
  EXPECT_EQ(c.id(), "bf16|fp8_e4m3|32x8x128|neox|nhd|N=128");
}

TEST(CaseId, NonDefaultOptionsInFixedOrder) {
  EXPECT_EQ(every_option_changed().id(),
            "fp16|fp8_e5m2|32x1x128|gptj|packed_hbs|N=7|rot=64|bs=32|scale=head|slots=padded|"
            "qout=separate|kout=cache_only|cs=fp32|seed=42");
}

TEST(CaseId, FullRotaryIsOneCaseHoweverWritten) {
  CaseSpec c;
  c.rot_dim = 128;  // == head size
  EXPECT_EQ(c.id(), "bf16|auto|32x8x128|neox|nhd|N=1");
  c.heads = *HeadConfig::parse("mla:16");
  c.rot_dim = 64;  // MLA rotates 64 dims
  EXPECT_EQ(c.id(), "bf16|auto|mla:16|neox|nhd|N=1");
  c.rot_dim = 32;
  EXPECT_EQ(c.id(), "bf16|auto|mla:16|neox|nhd|N=1|rot=32");
}

void expect_same(const CaseSpec& a, const CaseSpec& b) {
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.cache_dtype, b.cache_dtype);
  EXPECT_TRUE(a.heads == b.heads);
  EXPECT_EQ(a.style, b.style);
  EXPECT_EQ(a.rot_dim, b.rot_dim);
  EXPECT_TRUE(a.layout == b.layout);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_EQ(a.block_size, b.block_size);
  EXPECT_EQ(a.scale, b.scale);
  EXPECT_EQ(a.slots, b.slots);
  EXPECT_EQ(a.query_out, b.query_out);
  EXPECT_EQ(a.key_out, b.key_out);
  EXPECT_EQ(a.cos_sin_fp32, b.cos_sin_fp32);
  EXPECT_EQ(a.seed, b.seed);
}

TEST(CaseId, ParseIdInvertsIdOverManyCases) {
  int checked = 0;
  for (const char* heads : {"32x8x128", "32x32x128", "16x2x64", "mla:16"})
    for (const char* layout : {"nhd", "hnd", "packed_nhd", "packed_hnd", "sbh", "packed_hbs"})
      for (int rot : {0, 32})
        for (std::int64_t tokens : {1, 7, 16384}) {
          CaseSpec c = every_option_changed();
          c.heads = *HeadConfig::parse(heads);
          c.layout = *CacheLayout::parse(layout);
          c.rot_dim = rot;
          c.tokens = tokens;
          c.seed = 0xffffffffffffffffull - static_cast<std::uint64_t>(tokens);
          std::string error;
          const auto back = CaseSpec::parse_id(c.id(), &error);
          ASSERT_TRUE(back) << c.id() << ": " << error;
          expect_same(*back, c);
          EXPECT_EQ(back->id(), c.id());
          ++checked;
        }
  EXPECT_EQ(checked, 4 * 6 * 2 * 3);
  const auto d = CaseSpec::parse_id(CaseSpec{}.id(), nullptr);
  ASSERT_TRUE(d);
  expect_same(*d, CaseSpec{});
}

TEST(CaseId, ParseIdNormalizesFullRotaryAndAcceptsAnyOptionOrder) {
  const auto c = CaseSpec::parse_id("bf16|fp8|32x8x128|neox|nhd|N=8|seed=3|rot=128|bs=16", nullptr);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rot_dim, 0);
  EXPECT_EQ(c->seed, 3u);
  EXPECT_EQ(c->cache_dtype, CacheDType::fp8_e4m3);
  EXPECT_EQ(c->id(), "bf16|fp8_e4m3|32x8x128|neox|nhd|N=8|seed=3");
}

TEST(CaseId, ParseIdErrorsSayWhatIsWrong) {
  const std::pair<const char*, const char*> bad[] = {
      {"bf16|auto|32x8x128|neox|nhd", "has 5 fields"},
      {"bf61|auto|32x8x128|neox|nhd|N=1", "'bf61' is not a dtype"},
      {"bf16|int8|32x8x128|neox|nhd|N=1", "'int8' is not a cache dtype"},
      {"bf16|auto|32x7x128|neox|nhd|N=1", "32x7x128: 32 query heads are not a multiple of 7"},
      {"bf16|auto|32x8|neox|nhd|N=1", "'32x8' is not a head config"},
      {"bf16|auto|32x8x128|gpt|nhd|N=1", "'gpt' is not a rope style"},
      {"bf16|auto|32x8x128|neox|nbd|N=1", "'nbd' is not a cache layout"},
      {"bf16|auto|32x8x128|neox|nhd|N=0", "'N=0' is not N=<tokens>"},
      {"bf16|auto|32x8x128|neox|nhd|T=1", "'T=1' is not N=<tokens>"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|rot=63", "bad value for rot"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|bs=0", "bad value for bs"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|scale=row", "bad value for scale"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|cs=fp64", "bad value for cs"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|seed=-1", "bad value for seed"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|color=red", "unknown key 'color'"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|bs=8|bs=8", "'bs' is given twice"},
      {"bf16|auto|32x8x128|neox|nhd|N=1|bs", "'bs' is not key=value"},
  };
  for (const auto& [id, expected] : bad) {
    std::string error;
    EXPECT_FALSE(CaseSpec::parse_id(id, &error)) << id;
    EXPECT_NE(error.find(expected), std::string::npos) << id << " -> " << error;
  }
}

TEST(CaseId, ReproArgsQuoteTheIdForAPosixShell) {
  CaseSpec c;
  c.cache_dtype = CacheDType::fp8_e4m3;
  c.tokens = 128;
  EXPECT_EQ(c.repro_args(), "--case 'bf16|fp8_e4m3|32x8x128|neox|nhd|N=128'");
}

TEST(CacheTokens, PerSlotMode) {
  CaseSpec c;
  c.tokens = 128;
  EXPECT_EQ(c.cache_tokens(), 128);
  c.slots = SlotMode::padded;
  EXPECT_EQ(c.cache_tokens(), 96);  // 128 - 128/4
  c.tokens = 7;
  EXPECT_EQ(c.cache_tokens(), 6);  // 7 - max(1, 1)
  c.tokens = 2;
  EXPECT_EQ(c.cache_tokens(), 1);
  c.tokens = 1;
  EXPECT_EQ(c.cache_tokens(), 1);  // no room to pad; the planner drops padded N=1
  c.tokens = 16;
  c.slots = SlotMode::all_invalid;
  EXPECT_EQ(c.cache_tokens(), 16);
  c.slots = SlotMode::rope_only;
  EXPECT_EQ(c.cache_tokens(), 0);
}

TEST(CaseSpec, EffectiveRotDim) {
  CaseSpec c;
  EXPECT_EQ(c.effective_rot_dim(), 128);
  c.rot_dim = 64;
  EXPECT_EQ(c.effective_rot_dim(), 64);
  c.rot_dim = 0;
  c.heads = *HeadConfig::parse("mla:8");
  EXPECT_EQ(c.effective_rot_dim(), 64);
}

}  // namespace
}  // namespace rkv
