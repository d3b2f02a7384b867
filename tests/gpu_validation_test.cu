// The device side, end to end: the seeded device fills equal the host fills byte for byte; the
// validator passes a matrix of small cases over every layout and option; it catches a planted
// one-byte error and names the byte; the launcher refuses bad arguments without launching; the
// device byte comparison counts and locates differences; the device conversions equal the host
// model's bits; and a 2^20-token launch (qkv past 2^31 bytes, a grid of ~600k CTAs) validates.
//
// Every test here needs a GPU: the fixtures GTEST_SKIP() with the reason when there is none.
// Only GpuCaseList runs without one (it checks the case list itself).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_compare.h"
#include "device/seeded_fill.h"
#include "fast_divmod.h"
#include "gpu_skip.h"
#include "host_numeric.h"
#include "launch_spoilers.h"
#include "pdl_producer.h"
#include "plan/sweep_plan.h"
#include "rope_kv.h"
#include "rope_kv_device.cuh"
#include "unfused_pair.h"
#include "validate/buffer_coordinates.h"
#include "validate/validator.h"

namespace rkv {
namespace {

using GpuFill = GpuTest;
using GpuPlantedError = GpuTest;
using GpuLauncher = GpuTest;
using GpuCompare = GpuTest;
using GpuConversions = GpuTest;
using GpuLargeT = GpuTest;

// ---- the validation matrix

CaseSpec make_case(DType dtype, CacheDType cache, HeadConfig heads, RopeStyle style,
                   const char* layout, std::int64_t tokens) {
  CaseSpec s;
  s.dtype = dtype;
  s.cache_dtype = cache;
  s.heads = heads;
  s.style = style;
  s.layout = *CacheLayout::parse(layout);
  s.tokens = tokens;
  return s;
}

HeadConfig heads(int hq, int hkv, int d) {
  return HeadConfig{hq, hkv, d, false};
}
HeadConfig mla(int hq) {
  return HeadConfig{hq, 1, 0, true};
}

// Gpt-j partial rotary whose tokens are one to three whole CTAs, on the strided grid with its
// warps turning each pass (round 44b, strided_rotating; the launch query test checks that each
// takes it): padded slots, hnd and packed layouts, one-slot blocks, cache-only keys, a separate
// query output, fp16, and fp32 (4-element chunks) with an fp32 table.
std::vector<CaseSpec> rotating_cases() {
  using C = CacheDType;
  using R = RopeStyle;
  const auto rot = [](CaseSpec s, int r) {
    s.rot_dim = r;
    return s;
  };
  std::vector<CaseSpec> v;
  v.push_back(rot(make_case(DType::bf16, C::auto_, heads(16, 2, 256), R::gptj, "nhd", 4099), 128));
  v.back().slots = SlotMode::padded;
  v.push_back(rot(make_case(DType::fp16, C::auto_, heads(16, 4, 128), R::gptj, "hnd", 8192), 64));
  v.back().key_out = KeyOut::cache_only;
  v.push_back(
      rot(make_case(DType::bf16, C::auto_, heads(16, 2, 256), R::gptj, "packed_nhd", 6000), 64));
  v.back().block_size = 1;
  // A separate query output adds q pass-through units: 4 q rows of 16, 2 k and 2 v rows of 16.
  v.push_back(rot(make_case(DType::bf16, C::auto_, heads(4, 2, 128), R::gptj, "nhd", 16384), 64));
  v.back().query_out = QueryOut::separate;
  v.push_back(rot(make_case(DType::fp32, C::auto_, heads(8, 2, 128), R::gptj, "nhd", 8192), 64));
  v.back().cos_sin_fp32 = true;
  return v;
}

// Row-major launches whose warps mostly hold two or three roles, in phases on the strided grid
// (round 52) and the flat one (round 53) (phased; the launch query test checks that each takes
// it): both styles, padded
// slots, hnd and packed layouts, one-slot blocks, cache-only keys, a separate query output (q
// pass-through units in the q phase), fp16, and fp32 (4-element chunks) with an fp32 table.
std::vector<CaseSpec> phased_cases() {
  using C = CacheDType;
  using R = RopeStyle;
  std::vector<CaseSpec> v;
  v.push_back(make_case(DType::bf16, C::auto_, heads(8, 1, 64), R::neox, "nhd", 4099));
  v.back().slots = SlotMode::padded;
  v.push_back(make_case(DType::fp16, C::auto_, heads(8, 1, 64), R::gptj, "hnd", 8192));
  v.back().key_out = KeyOut::cache_only;
  v.push_back(make_case(DType::bf16, C::auto_, heads(14, 2, 64), R::neox, "packed_nhd", 6000));
  v.back().block_size = 1;
  v.push_back(make_case(DType::bf16, C::auto_, heads(8, 1, 64), R::gptj, "nhd", 5000));
  v.back().rot_dim = 32;
  v.back().query_out = QueryOut::separate;
  v.push_back(make_case(DType::fp32, C::auto_, heads(8, 1, 64), R::neox, "nhd", 8192));
  v.back().cos_sin_fp32 = true;
  // On the flat grid, one pass a thread (round 53): neox with padded slots, gpt-j partial rotary
  // in the hnd layout.
  v.push_back(make_case(DType::bf16, C::auto_, heads(8, 1, 64), R::neox, "nhd", 2000));
  v.back().slots = SlotMode::padded;
  v.push_back(make_case(DType::fp16, C::auto_, heads(14, 2, 64), R::gptj, "hnd", 1000));
  v.back().rot_dim = 32;
  return v;
}

// Neox with 16-bit q/k and an fp32 cos/sin table on every unit kernel and order beyond decode
// sizes (the other fp32-table cases are small launches), each with the route it takes: the launch
// query test checks each. A change that splits the unit kernels by the table's dtype (round 45b
// held a neox unit's entries packed in the q/k dtype) must keep these.
struct RoutedCase {
  CaseSpec spec;
  const char* kernel;
  bool role_major;
};
std::vector<RoutedCase> fp32_table_neox_cases() {
  using C = CacheDType;
  const auto tweak = [](CaseSpec s, int rot, SlotMode slots) {
    s.cos_sin_fp32 = true;
    if (rot > 0) s.rot_dim = rot;
    s.slots = slots;
    return s;
  };
  const auto neox = [](DType d, C c, HeadConfig h, std::int64_t n) {
    return make_case(d, c, h, RopeStyle::neox, "nhd", n);
  };
  const DType bf16 = DType::bf16, fp16 = DType::fp16;
  const SlotMode all = SlotMode::mixed, padded = SlotMode::padded;
  return {{tweak(neox(bf16, C::auto_, heads(32, 8, 128), 2048), 0, padded), "strided", false},
          {tweak(neox(fp16, C::auto_, heads(32, 8, 128), 2048), 64, all), "strided", true},
          {tweak(neox(bf16, C::auto_, heads(32, 8, 80), 300), 0, all), "flat", false},
          {tweak(neox(fp16, C::auto_, heads(32, 8, 128), 300), 64, padded), "flat", true},
          {tweak(neox(bf16, C::auto_, mla(16), 4099), 0, padded), "wide", false},
          {tweak(neox(fp16, C::auto_, mla(16), 4099), 32, all), "wide", true},
          {tweak(neox(bf16, C::fp8_e4m3, heads(32, 32, 128), 300), 0, padded), "flat_wide", false},
          {tweak(neox(bf16, C::fp8_e4m3, heads(16, 2, 256), 2048), 128, all), "flat", true},
          {tweak(neox(fp16, C::fp8_e5m2, heads(32, 8, 128), 8192), 64, all), "strided", true},
          {tweak(neox(bf16, C::fp8_e4m3, heads(32, 8, 128), 16384), 0, all), "strided", false}};
}

// Row-major flat neox launches with a 16-bit cache and the table in the q/k dtype, which hold a
// unit's cos/sin packed in that dtype (packs_flat, round 58; the launch query test checks each
// takes the flat grid in row-major order): 80-wide heads in both layouts and dtypes, padded
// slots, one-slot blocks, hnd, cache-only keys and a separate query output at N = 128, and
// 40-wide heads, whose 20-element half rows take 4-element chunks.
std::vector<CaseSpec> packed_flat_cases() {
  using C = CacheDType;
  using R = RopeStyle;
  std::vector<CaseSpec> v;
  v.push_back(make_case(DType::bf16, C::auto_, heads(40, 8, 80), R::neox, "nhd", 2048));
  v.back().slots = SlotMode::padded;
  v.push_back(make_case(DType::fp16, C::auto_, heads(40, 8, 80), R::neox, "packed_nhd", 2048));
  v.back().block_size = 1;
  v.push_back(make_case(DType::bf16, C::auto_, heads(32, 32, 128), R::neox, "hnd", 128));
  v.back().key_out = KeyOut::cache_only;
  v.back().query_out = QueryOut::separate;
  v.push_back(make_case(DType::fp16, C::auto_, heads(64, 8, 128), R::neox, "nhd", 128));
  v.back().seed = 3;
  v.push_back(make_case(DType::bf16, C::auto_, heads(32, 8, 40), R::neox, "nhd", 2048));
  return v;
}

// Neox full-row token-warp launches with the table in the 16-bit q/k dtype, which hold a lane's
// cos/sin packed and run bounded to 7 CTAs a SM (round 63; the launch query test checks each takes
// the token warp): both dtypes, all three cache dtypes, padded slots, one-slot blocks, cache-only
// keys, another seed. A separate query output leaves the token warp (its q rows are rotated in
// place), so none has one. Their fp32-table twins keep the float table (the matrix's `cs=fp32`
// cases).
std::vector<CaseSpec> packed_token_warp_cases() {
  using C = CacheDType;
  using R = RopeStyle;
  std::vector<CaseSpec> v;
  v.push_back(make_case(DType::bf16, C::fp8_e4m3, mla(16), R::neox, "nhd", 6001));
  v.back().slots = SlotMode::padded;
  v.push_back(make_case(DType::fp16, C::fp8_e5m2, mla(16), R::neox, "nhd", 4099));
  v.back().block_size = 1;
  v.back().key_out = KeyOut::cache_only;
  v.push_back(make_case(DType::fp16, C::fp8_e4m3, mla(16), R::neox, "nhd", 8192));
  v.back().seed = 3;
  v.push_back(make_case(DType::bf16, C::auto_, mla(16), R::neox, "nhd", 2048));
  v.back().slots = SlotMode::padded;
  v.push_back(make_case(DType::fp16, C::auto_, mla(16), R::neox, "nhd", 2048));
  v.back().block_size = 1;
  return v;
}

// Small cases that together cover every layout preset and two other orders, both styles, every
// cache dtype and scale kind, every slot mode, both outputs options, both table dtypes, fp32,
// MLA, head sizes 64/80/96/128/256, T = 1 and 300, and partial rotary (two access widths).
std::vector<CaseSpec> validation_cases() {
  using C = CacheDType;
  using R = RopeStyle;
  const DType bf16 = DType::bf16, fp16 = DType::fp16, fp32 = DType::fp32;
  std::vector<CaseSpec> v;
  auto add = [&](CaseSpec s, auto&& tweak) {
    tweak(s);
    v.push_back(s);
  };
  auto none = [](CaseSpec&) {};

  add(make_case(bf16, C::auto_, heads(32, 8, 128), R::neox, "nhd", 33), none);
  add(make_case(bf16, C::auto_, heads(32, 8, 128), R::gptj, "hnd", 300), none);
  add(make_case(fp16, C::auto_, heads(8, 2, 64), R::gptj, "hnd", 7), none);
  add(make_case(bf16, C::fp8_e4m3, heads(4, 4, 128), R::neox, "packed_nhd", 17), none);
  add(make_case(fp16, C::fp8_e5m2, heads(8, 1, 96), R::gptj, "packed_hnd", 9),
      [](CaseSpec& s) { s.scale = ScaleKind::per_head; });
  add(make_case(bf16, C::fp8_e4m3, heads(16, 4, 80), R::neox, "hbs", 300),
      [](CaseSpec& s) { s.scale = ScaleKind::per_head; });
  add(make_case(bf16, C::auto_, heads(8, 8, 256), R::gptj, "packed_sbh", 5), none);
  add(make_case(fp16, C::auto_, heads(8, 2, 256), R::neox, "nhd", 1), none);
  add(make_case(bf16, C::auto_, heads(8, 8, 96), R::neox, "nhd", 1), none);
  // slot modes
  add(make_case(bf16, C::auto_, heads(4, 2, 128), R::neox, "nhd", 40),
      [](CaseSpec& s) { s.slots = SlotMode::padded; });
  add(make_case(fp16, C::fp8_e4m3, heads(4, 2, 64), R::neox, "hnd", 12),
      [](CaseSpec& s) { s.slots = SlotMode::all_invalid; });
  add(make_case(bf16, C::auto_, heads(4, 2, 128), R::neox, "nhd", 300),
      [](CaseSpec& s) { s.slots = SlotMode::rope_only; });
  // RoPE-only with an fp8 cache dtype: bind_args leaves k_scale null, which the kernel must not
  // read (no slot, no cache write).
  add(make_case(bf16, C::fp8_e4m3, heads(8, 2, 64), R::neox, "nhd", 33),
      [](CaseSpec& s) { s.slots = SlotMode::rope_only; });
  add(make_case(bf16, C::auto_, heads(32, 8, 128), R::neox, "nhd", 300), [](CaseSpec& s) {
    s.slots = SlotMode::padded;
    s.block_size = 32;
  });
  // outputs
  add(make_case(bf16, C::auto_, heads(8, 2, 128), R::neox, "nhd", 20), [](CaseSpec& s) {
    s.query_out = QueryOut::separate;
    s.rot_dim = 64;
  });
  add(make_case(bf16, C::fp8_e4m3, heads(8, 2, 128), R::neox, "packed_nhd", 25),
      [](CaseSpec& s) { s.key_out = KeyOut::cache_only; });
  add(make_case(fp16, C::fp8_e5m2, heads(8, 2, 128), R::neox, "packed_hnd", 48), [](CaseSpec& s) {
    s.slots = SlotMode::padded;
    s.query_out = QueryOut::separate;
    s.key_out = KeyOut::cache_only;
    s.scale = ScaleKind::per_head;
  });
  add(make_case(bf16, C::auto_, heads(8, 2, 128), R::neox, "nhd", 30), [](CaseSpec& s) {
    s.slots = SlotMode::rope_only;
    s.query_out = QueryOut::separate;
    s.rot_dim = 32;
  });
  // cos/sin table in fp32
  add(make_case(bf16, C::auto_, heads(8, 2, 64), R::neox, "nhd", 10),
      [](CaseSpec& s) { s.cos_sin_fp32 = true; });
  add(make_case(fp16, C::fp8_e5m2, heads(4, 1, 128), R::gptj, "hnd", 10), [](CaseSpec& s) {
    s.cos_sin_fp32 = true;
    s.scale = ScaleKind::per_head;
  });
  // fp32 q/k/v
  add(make_case(fp32, C::auto_, heads(4, 2, 64), R::neox, "nhd", 16), none);
  add(make_case(fp32, C::fp8_e5m2, heads(4, 2, 128), R::gptj, "hnd", 33), [](CaseSpec& s) {
    s.scale = ScaleKind::per_head;
    s.cos_sin_fp32 = true;
  });
  // MLA
  add(make_case(bf16, C::auto_, mla(16), R::gptj, "nhd", 1), none);
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::neox, "nhd", 300), none);
  add(make_case(fp16, C::auto_, mla(128), R::gptj, "nhd", 33), [](CaseSpec& s) {
    s.query_out = QueryOut::separate;
    s.key_out = KeyOut::cache_only;
  });
  add(make_case(bf16, C::auto_, mla(16), R::gptj, "nhd", 7),
      [](CaseSpec& s) { s.slots = SlotMode::rope_only; });
  // MLA full rotary beyond decode sizes: the token-warp kernel (one warp a token), with padded
  // slots (tokens past Tc rotate q and k but write no cache entry) and one-slot blocks.
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::gptj, "nhd", 4099),
      [](CaseSpec& s) { s.slots = SlotMode::padded; });
  add(make_case(fp16, C::fp8_e5m2, mla(16), R::gptj, "nhd", 8192),
      [](CaseSpec& s) { s.block_size = 1; });
  // Its neox lanes (a chunk each, the partner's by a shuffle), with invalid slots among valid
  // ones, one-slot blocks, and fp32 inputs (4-element chunks, 16 a row).
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::neox, "nhd", 4099),
      [](CaseSpec& s) { s.slots = SlotMode::padded; });
  add(make_case(fp16, C::fp8_e5m2, mla(16), R::neox, "nhd", 8192),
      [](CaseSpec& s) { s.block_size = 1; });
  add(make_case(fp32, C::fp8_e4m3, mla(16), R::neox, "nhd", 4099), none);
  // Partial rotary (rot = 32, round 33): the k row's pass-through chunks go to the cache from the
  // lanes after its rotated ones (the KPASS kernels), with padded slots, cache-only keys, one-slot
  // blocks and fp32 inputs.
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::neox, "nhd", 4099), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.slots = SlotMode::padded;
  });
  add(make_case(fp16, C::fp8_e5m2, mla(16), R::gptj, "nhd", 4099), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.key_out = KeyOut::cache_only;
  });
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::gptj, "nhd", 8192), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.block_size = 1;
  });
  add(make_case(fp32, C::fp8_e4m3, mla(16), R::neox, "nhd", 4099),
      [](CaseSpec& s) { s.rot_dim = 32; });
  // Below a wave of the kernel (round 34b from half a wave, round 36 wherever the decode
  // launches end): partial rotary in either style and gpt-j full rotary, a few hundred CTAs,
  // fewer than one a SM's worth at 640 tokens.
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::neox, "nhd", 2048), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.slots = SlotMode::padded;
  });
  add(make_case(fp16, C::fp8_e4m3, mla(16), R::neox, "nhd", 640), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.block_size = 1;
  });
  add(make_case(bf16, C::fp8_e5m2, mla(16), R::gptj, "nhd", 777), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.slots = SlotMode::padded;
  });
  add(make_case(bf16, C::fp8_e4m3, mla(16), R::gptj, "nhd", 1031), [](CaseSpec& s) {
    s.slots = SlotMode::padded;
    s.key_out = KeyOut::cache_only;
  });
  // A 16-bit cache with full rows between two and a half CTAs a SM and a wave (round 37c): both
  // styles (neox's chunk lanes bounded to 6 CTAs a SM), padded slots, one-slot blocks, cache-only
  // keys and an fp32 cos/sin table.
  add(make_case(bf16, C::auto_, mla(16), R::neox, "nhd", 2047), [](CaseSpec& s) {
    s.slots = SlotMode::padded;
    s.cos_sin_fp32 = true;
  });
  add(make_case(fp16, C::auto_, mla(16), R::gptj, "nhd", 1400), [](CaseSpec& s) {
    s.block_size = 1;
    s.key_out = KeyOut::cache_only;
  });
  add(make_case(fp16, C::auto_, mla(16), R::neox, "nhd", 3100), none);
  // fp32 inputs (4-element chunks; the kernel holds 7 CTAs a SM, so its wave ends at 3695 tokens).
  add(make_case(fp32, C::auto_, mla(16), R::gptj, "nhd", 2500),
      [](CaseSpec& s) { s.slots = SlotMode::padded; });
  add(make_case(fp32, C::auto_, mla(16), R::neox, "nhd", 1400), none);
  // Neox from two CTAs a SM (round 38), where its unit route is the strided grid's one wave.
  add(make_case(bf16, C::auto_, mla(16), R::neox, "nhd", 1250),
      [](CaseSpec& s) { s.slots = SlotMode::padded; });
  // Gpt-j partial rotary on the strided grid with its warps turning (round 44b).
  for (const CaseSpec& s : rotating_cases())
    v.push_back(s);
  // Warps that would mix roles, in phases (round 51).
  for (const CaseSpec& s : phased_cases())
    v.push_back(s);
  // Neox unit kernels with an fp32 table beyond decode sizes, each kernel and order.
  for (const RoutedCase& r : fp32_table_neox_cases())
    v.push_back(r.spec);
  // Row-major flat neox with the table packed in the q/k dtype (round 58).
  for (const CaseSpec& s : packed_flat_cases())
    v.push_back(s);
  // The neox full-row token warp with the table packed in the q/k dtype (round 63).
  for (const CaseSpec& s : packed_token_warp_cases())
    v.push_back(s);
  // partial rotary: R/2 = 20 allows only 4 elements per access
  add(make_case(bf16, C::fp8_e4m3, heads(8, 2, 80), R::neox, "nhd", 64),
      [](CaseSpec& s) { s.rot_dim = 40; });
  add(make_case(fp16, C::auto_, heads(4, 2, 64), R::gptj, "nhd", 50), [](CaseSpec& s) {
    s.rot_dim = 32;
    s.query_out = QueryOut::separate;
  });
  // one-slot blocks and another seed
  add(make_case(bf16, C::auto_, heads(4, 2, 64), R::neox, "hnd", 100), [](CaseSpec& s) {
    s.block_size = 1;
    s.seed = 7;
  });
  return v;
}

// gtest names allow [A-Za-z0-9_] only.
std::string case_name(const ::testing::TestParamInfo<CaseSpec>& info) {
  std::string name = std::to_string(info.index) + "_";
  for (char c : info.param.id())
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// Runs without a GPU: a typo in the list shows here, not as a confusing device failure.
TEST(GpuCaseList, EveryCaseIsPlannableAndDistinct) {
  std::set<std::string> ids;
  for (const CaseSpec& s : validation_cases()) {
    EXPECT_FALSE(case_problem(s).has_value()) << s.id() << ": " << case_problem(s).value_or("");
    EXPECT_TRUE(ids.insert(s.id()).second) << "twice: " << s.id();
  }
}

class GpuValidateSpec : public ::testing::TestWithParam<CaseSpec> {
 protected:
  void SetUp() override { RKV_SKIP_WITHOUT_GPU(); }
};

TEST_P(GpuValidateSpec, FusedEqualsPairEqualsGolden) {
  // The golden model on every token, not a sample, whatever the case's size.
  ValidateOptions every_token;
  every_token.golden_sample_tokens = GetParam().tokens;
  const CaseValidation v = validate_spec(GetParam(), every_token);
  EXPECT_EQ(to_string(v.disposition), "passed") << v.detail;
  EXPECT_EQ(v.mismatches, 0) << v.first_mismatch;
  EXPECT_EQ(v.detail, "fused = pair = golden on every byte");
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuValidateSpec, ::testing::ValuesIn(validation_cases()), case_name);

// ---- (a) device fills equal host fills

TEST_F(GpuFill, ValuesMatchHostByteForByte) {
  constexpr std::int64_t kN = (1 << 20) + 7;  // a partial last CTA too
  for (DType d : {DType::bf16, DType::fp16, DType::fp32}) {
    const std::int64_t bytes = kN * static_cast<std::int64_t>(dtype_bytes(d));
    DeviceBuffer buf(bytes, "fill test");
    fill_values_device(buf.get(), d, kN, 1234, static_cast<std::uint64_t>(FillStream::qkv));
    const std::vector<std::uint8_t> device = buf.to_host();
    std::vector<std::uint8_t> host(static_cast<std::size_t>(bytes));
    fill_values_host(host.data(), d, kN, 1234, static_cast<std::uint64_t>(FillStream::qkv));
    EXPECT_TRUE(device == host) << to_string(d);
  }
}

TEST_F(GpuFill, SentinelMatchesHostByteForByte) {
  constexpr std::int64_t kBytes = (1 << 20) + 5;  // not a multiple of the 8-byte draw
  DeviceBuffer buf(kBytes, "sentinel test");
  fill_sentinel_device(buf.get(), kBytes, 99);
  const std::vector<std::uint8_t> device = buf.to_host();
  std::vector<std::uint8_t> host(kBytes);
  fill_sentinel_host(host.data(), kBytes, 99);
  EXPECT_TRUE(device == host);
}

// ---- (c) a planted one-byte error is caught and named

CaseSpec planted_spec(const char* layout) {
  CaseSpec s = make_case(DType::bf16, CacheDType::auto_, heads(4, 2, 64), RopeStyle::neox, layout,
                         16);  // 3 blocks of 16 slots
  return s;
}

// Validates `s` with one byte flipped at `byte` and expects exactly that byte to be reported:
// once by the device comparison with the pair, once by the golden comparison.
void expect_caught(const CaseSpec& s, std::int64_t byte, const std::string& where) {
  ValidateOptions o;
  o.plant_error_at = byte;
  const CaseValidation v = validate_spec(s, o);
  EXPECT_EQ(to_string(v.disposition), "incorrect") << v.detail;
  EXPECT_GE(v.mismatches, 1);
  EXPECT_EQ(v.mismatches, 2) << v.detail;
  EXPECT_EQ(v.first_mismatch, "vs pair: " + where);
  EXPECT_NE(v.detail.find(where), std::string::npos) << v.detail;
}

TEST_F(GpuPlantedError, KeyCacheByteIsNamed) {
  const CaseSpec s = planted_spec("nhd");
  const TensorPlan p = make_tensor_plan(s);
  // The high byte of key_cache[block=1, offset=3, head=1, d=5].
  const std::int64_t element = 1 * p.block_stride + 3 * p.slot_stride + 1 * p.head_stride + 5;
  const std::int64_t byte = element * 2 + 1;
  const CacheEntryRef r = locate_cache_element(p, element);
  EXPECT_EQ(r.block, 1);
  EXPECT_EQ(r.offset, 3);
  EXPECT_EQ(r.head, 1);
  EXPECT_EQ(r.dim, 5);
  const std::string where = describe_byte(p, BufferKind::k_cache, byte);
  EXPECT_EQ(where, "key_cache[block=1, offset=3, head=1, d=5]");
  expect_caught(s, byte, where);
}

TEST_F(GpuPlantedError, PackedValueHalfIsNamedValueCache) {
  CaseSpec s = planted_spec("packed_hnd");
  s.cache_dtype = CacheDType::fp8_e4m3;
  const TensorPlan p = make_tensor_plan(s);
  // One fp8 byte in the V half of block 2, offset 0, head 0: row dim 64 + 17.
  const std::int64_t byte = 2 * p.block_stride + 0 * p.slot_stride + 0 * p.head_stride + 64 + 17;
  const std::string where = describe_byte(p, BufferKind::k_cache, byte);
  EXPECT_EQ(where, "value_cache[block=2, offset=0, head=0, d=17]");
  expect_caught(s, byte, where);
}

TEST_F(GpuPlantedError, MlaKeyAtOffset512) {
  CaseSpec s = make_case(DType::bf16, CacheDType::auto_, mla(16), RopeStyle::gptj, "nhd", 16);
  const TensorPlan p = make_tensor_plan(s);
  const std::int64_t element = 1 * p.block_stride + 4 * p.slot_stride + 512 + 3;
  const std::string where = describe_byte(p, BufferKind::k_cache, element * 2);
  EXPECT_EQ(where, "key_cache[block=1, offset=4, head=0, d=3]");
  expect_caught(s, element * 2, where);
}

TEST_F(GpuPlantedError, RopeOnlyPlantsIntoQkv) {
  CaseSpec s = planted_spec("nhd");
  s.slots = SlotMode::rope_only;
  const TensorPlan p = make_tensor_plan(s);
  const std::int64_t element = 5 * p.row_elems + p.k_col + 1 * 64 + 2;  // key[t=5, h=1, d=2]
  const std::string where = describe_byte(p, BufferKind::qkv, element * 2);
  EXPECT_EQ(where, "key[t=5, h=1, d=2]");
  expect_caught(s, element * 2, where);
}

TEST_F(GpuPlantedError, OffsetPastTheBufferFails) {
  const CaseSpec s = planted_spec("nhd");
  ValidateOptions o;
  o.plant_error_at = make_tensor_plan(s).cache_bytes();
  const CaseValidation v = validate_spec(s, o);
  EXPECT_EQ(to_string(v.disposition), "failed");
  EXPECT_NE(v.detail.find("past the buffer"), std::string::npos) << v.detail;
}

// ---- (d) the launcher refuses what it cannot run, before launching

// Everything a launch on `out` may write, so a test can show nothing changed.
std::vector<std::uint8_t> written_bytes(const OutputBuffers& out) {
  std::vector<std::uint8_t> all = out.qkv.to_host();
  for (const DeviceBuffer* b : {&out.query_out, &out.k_cache, &out.v_cache}) {
    const std::vector<std::uint8_t> part = b->to_host();
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}
std::vector<std::uint8_t> written_bytes(const DeviceCase& dc) {
  return written_bytes(dc.slot_a);
}

// The small bf16 case with one argument broken by `spoil`: the launcher must return
// cudaErrorInvalidValue on the host, leave no launch error pending and write nothing.
template <typename Spoil>
void expect_refused_without_writing(Spoil spoil) {
  DeviceCase dc(
      make_case(DType::bf16, CacheDType::auto_, heads(2, 1, 64), RopeStyle::neox, "nhd", 8));
  const std::vector<std::uint8_t> before = written_bytes(dc);
  RopeKvArgs a = dc.args(OutputSlot::a);
  spoil(a);
  EXPECT_EQ(rope_kv_fused(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(written_bytes(dc) == before);
}

// Every refusal of check_launch_args (launch_spoilers.h), on real device buffers: the fused
// kernel, the pair and each of its kernels return cudaErrorInvalidValue, no launch error is left
// pending, and no byte of q/k/v, query_out or either cache changes, for either copy.
class GpuLaunchRefusal : public ::testing::TestWithParam<LaunchSpoiler> {
 protected:
  void SetUp() override { RKV_SKIP_WITHOUT_GPU(); }
};

TEST_P(GpuLaunchRefusal, NoLauncherWritesAByte) {
  DeviceCase dc(launch_spoiler_base());
  const std::vector<std::uint8_t> fused_before = written_bytes(dc.slot_a);
  const std::vector<std::uint8_t> pair_before = written_bytes(dc.slot_b);
  RopeKvArgs fused = dc.args(OutputSlot::a), pair = dc.args(OutputSlot::b);
  ASSERT_EQ(check_launch_args(fused), nullptr);
  GetParam().spoil(fused);
  GetParam().spoil(pair);
  const char* why = check_launch_args(fused);
  ASSERT_NE(why, nullptr);
  EXPECT_STREQ(why, GetParam().reason);
  EXPECT_EQ(rope_kv_fused(fused, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(rope_inplace(pair, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cache_write(pair, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(unfused_pair(pair, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(written_bytes(dc.slot_a) == fused_before);
  EXPECT_TRUE(written_bytes(dc.slot_b) == pair_before);
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuLaunchRefusal, ::testing::ValuesIn(launch_spoilers()),
                         [](const ::testing::TestParamInfo<LaunchSpoiler>& info) {
                           return std::string(info.param.name);
                         });

TEST_F(GpuLauncher, RefusesACacheOfTwoToThe31Slots) {
  expect_refused_without_writing(
      [](RopeKvArgs& a) { a.num_blocks = (std::int64_t{1} << 31) / a.block_size; });
}

TEST_F(GpuLauncher, RefusesMoreCacheTokensThanTokens) {
  expect_refused_without_writing([](RopeKvArgs& a) { a.num_cache_tokens = a.num_tokens + 1; });
}

TEST_F(GpuLauncher, RefusesShapesNoWidthDivides) {
  // Head size 66, full neox rotary: halves of 33 elements, so not even 2-element accesses fit.
  const CaseSpec s =
      make_case(DType::bf16, CacheDType::auto_, heads(2, 1, 66), RopeStyle::neox, "nhd", 8);
  DeviceCase dc(s);
  const std::vector<std::uint8_t> before = written_bytes(dc);
  const RopeKvArgs a = dc.args(OutputSlot::a);
  ASSERT_EQ(rope_kv_vector_elems(a), 0);
  EXPECT_EQ(rope_kv_fused(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(unfused_pair(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(written_bytes(dc) == before);
  EXPECT_EQ(to_string(validate_spec(s, ValidateOptions{}).disposition), "not_supported");
}

TEST_F(GpuLauncher, RefusesAMisalignedView) {
  // One bf16 off: no pair-aligned access.
  expect_refused_without_writing(
      [](RopeKvArgs& a) { a.key.data = static_cast<char*>(a.key.data) + 2; });
}

// The launch query names the kernel that runs: compact parameter blocks for the row-warp kernel
// always, for decode role-major launches of few CTAs a SM, never beyond decode sizes; it agrees
// with the routing function on this GPU's occupancy for the order and the grid.
TEST_F(GpuLauncher, TheLaunchQuerySaysWhichParametersTheKernelReads) {
  const auto rot32 = [](CaseSpec s) {
    s.rot_dim = 32;
    return s;
  };
  struct Want {
    CaseSpec spec;
    const char* kernel;
    bool compact;
  };
  const Want wants[] = {
      {make_case(DType::bf16, CacheDType::auto_, heads(32, 8, 128), RopeStyle::neox, "nhd", 1),
       "row_warp", true},
      {make_case(DType::bf16, CacheDType::auto_, heads(8, 1, 64), RopeStyle::gptj, "nhd", 1),
       "decode_roles", true},
      {make_case(DType::bf16, CacheDType::auto_, heads(32, 8, 128), RopeStyle::neox, "nhd", 4096),
       "strided", false},
      // Round 44b: full rotary of 384 units a token (every slot the same cost) keeps the plain
      // loop; the turning cases are checked below.
      {make_case(DType::bf16, CacheDType::auto_, heads(8, 8, 128), RopeStyle::gptj, "nhd", 16384),
       "strided", false},
      {make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::gptj, "nhd", 16384),
       "token_warp", false},
      {make_case(DType::fp16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 16384),
       "token_warp", false},
      {rot32(make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::gptj, "nhd", 16384)),
       "token_warp", false},
      {rot32(make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 16384)),
       "token_warp", false},
      {rot32(make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 2048)),
       "token_warp", false},
      {make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::gptj, "nhd", 2048),
       "token_warp", false},
      {make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 2048),
       "prefill_half", false},
      // Round 36: below half a wave, partial rotary and gpt-j full rotary (1024 tokens).
      {rot32(make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 1024)),
       "token_warp", false},
      {make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::gptj, "nhd", 1024),
       "token_warp", false},
      {make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::neox, "nhd", 1024),
       "prefill_half", false},
      // Round 37c: a 16-bit cache from two and a half CTAs a SM to a wave.
      {make_case(DType::bf16, CacheDType::auto_, mla(16), RopeStyle::gptj, "nhd", 2048),
       "token_warp", false},
      {make_case(DType::fp16, CacheDType::auto_, mla(16), RopeStyle::neox, "nhd", 2048),
       "token_warp", false},
      {make_case(DType::bf16, CacheDType::auto_, mla(16), RopeStyle::neox, "nhd", 16384), "wide",
       false},
      {make_case(DType::bf16, CacheDType::auto_, mla(16), RopeStyle::neox, "nhd", 1280),
       "token_warp", false},
      {make_case(DType::fp32, CacheDType::auto_, mla(16), RopeStyle::gptj, "nhd", 2500),
       "token_warp", false},
      // Gpt-j's band starts at two and a half CTAs a SM: at 1280 tokens the flat grid in
      // role-major whole warps (round 26b).
      {make_case(DType::bf16, CacheDType::auto_, mla(16), RopeStyle::gptj, "nhd", 1280), "flat",
       false}};
  for (const Want& w : wants) {
    DeviceCase dc(w.spec);
    RopeKvFusedLaunch launch;
    ASSERT_EQ(rope_kv_fused_launch(dc.args(OutputSlot::a), &launch), cudaSuccess) << w.spec.id();
    EXPECT_STREQ(launch.kernel, w.kernel) << w.spec.id();
    EXPECT_EQ(launch.compact, w.compact) << w.spec.id();
    EXPECT_GT(launch.ctas, 0) << w.spec.id();
  }
  // Each case of a list takes `kernel` in row-major order on the device.
  const auto expect_row_major = [](const std::vector<CaseSpec>& cases, const char* kernel) {
    for (const CaseSpec& s : cases) {
      DeviceCase dc(s);
      RopeKvFusedLaunch launch;
      ASSERT_EQ(rope_kv_fused_launch(dc.args(OutputSlot::a), &launch), cudaSuccess) << s.id();
      EXPECT_STREQ(launch.kernel, kernel) << s.id();
      EXPECT_FALSE(launch.role_major) << s.id();
    }
  };
  expect_row_major(rotating_cases(), "strided_rotating");
  expect_row_major(phased_cases(), "phased");
  for (const RoutedCase& r : fp32_table_neox_cases()) {
    DeviceCase dc(r.spec);
    RopeKvFusedLaunch launch;
    ASSERT_EQ(rope_kv_fused_launch(dc.args(OutputSlot::a), &launch), cudaSuccess) << r.spec.id();
    EXPECT_STREQ(launch.kernel, r.kernel) << r.spec.id();
    EXPECT_EQ(launch.role_major, r.role_major) << r.spec.id();
  }
  expect_row_major(packed_flat_cases(), "flat");
  expect_row_major(packed_token_warp_cases(), "token_warp");
}

TEST_F(GpuLauncher, NoTokensIsANoOp) {
  DeviceCase dc(
      make_case(DType::bf16, CacheDType::auto_, heads(2, 1, 64), RopeStyle::neox, "nhd", 8));
  const std::vector<std::uint8_t> before = written_bytes(dc);
  RopeKvArgs a = dc.args(OutputSlot::a);
  a.num_tokens = a.num_cache_tokens = 0;
  EXPECT_EQ(rope_kv_fused(a, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(written_bytes(dc) == before);
}

// ---- programmatic dependent launch (RopeKvArgs::programmatic_dependent_launch)

// A producer standing in for the QKV projection: lets its dependent start at once, then spins for
// ~50 µs before writing qkv, so a consumer that did not wait would read the old bytes.
__global__ void slow_producer_kernel(unsigned char* dst, const unsigned char* src,
                                     std::int64_t bytes) {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  const long long start = clock64();
  while (clock64() - start < 100000) {
  }
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < bytes;
       i += std::int64_t{gridDim.x} * blockDim.x)
    dst[i] = src[i];
}

std::vector<CaseSpec> pdl_cases() {
  std::vector<CaseSpec> v = {
      make_case(DType::bf16, CacheDType::auto_, heads(32, 8, 128), RopeStyle::neox, "nhd", 33),
      make_case(DType::fp16, CacheDType::fp8_e4m3, heads(8, 2, 64), RopeStyle::gptj, "hnd", 300),
      make_case(DType::bf16, CacheDType::fp8_e5m2, mla(16), RopeStyle::neox, "nhd", 17),
      // The token-warp kernel (MLA full rotary beyond decode sizes).
      make_case(DType::bf16, CacheDType::fp8_e4m3, mla(16), RopeStyle::gptj, "nhd", 4096),
      make_case(DType::bf16, CacheDType::fp8_e5m2, mla(16), RopeStyle::neox, "nhd", 4096)};
  v[1].query_out = QueryOut::separate;
  return v;
}

// PDL launches give the same bytes as ordinary ones, for the fused kernel and the pair, also
// when launched right after a producer of qkv: the consumers waited for it.
TEST_F(GpuLauncher, PdlLaunchSeesTheProducersQkv) {
  for (const CaseSpec& spec : pdl_cases()) {
    for (bool fused : {true, false}) {
      DeviceCase dc(spec);
      // Reference: the pair copy, ordinary launch on the original qkv.
      RopeKvArgs ref = dc.args(OutputSlot::b);
      ASSERT_EQ(fused ? rope_kv_fused(ref, nullptr) : unfused_pair(ref, nullptr), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const std::vector<std::uint8_t> want = written_bytes(dc.slot_b);
      // The fused copy: qkv saved, overwritten with zeros, restored by the slow producer, then
      // the consumer launched with PDL.
      const std::int64_t qkv_bytes = dc.slot_a.qkv.bytes();
      DeviceBuffer saved(qkv_bytes, "saved qkv");
      ASSERT_EQ(cudaMemcpy(saved.get(), dc.slot_a.qkv.get(), qkv_bytes, cudaMemcpyDeviceToDevice),
                cudaSuccess);
      ASSERT_EQ(cudaMemset(dc.slot_a.qkv.get(), 0, qkv_bytes), cudaSuccess);
      cudaStream_t stream;
      ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
      slow_producer_kernel<<<64, 256, 0, stream>>>(static_cast<unsigned char*>(dc.slot_a.qkv.get()),
                                                   static_cast<const unsigned char*>(saved.get()),
                                                   qkv_bytes);
      RopeKvArgs a = dc.args(OutputSlot::a);
      a.programmatic_dependent_launch = true;
      EXPECT_EQ(fused ? rope_kv_fused(a, stream) : unfused_pair(a, stream), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
      EXPECT_TRUE(written_bytes(dc.slot_a) == want) << spec.id() << (fused ? " fused" : " pair");
    }
  }
}

// The benchmark's producer (reference/pdl_producer.h) copies and fills, and a PDL consumer after
// it sees its data.
TEST_F(GpuLauncher, PdlProducerCopiesThenTheConsumerSeesIt) {
  const CaseSpec spec = pdl_cases()[1];
  DeviceCase dc(spec);
  RopeKvArgs ref = dc.args(OutputSlot::b);
  ASSERT_EQ(rope_kv_fused(ref, nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<std::uint8_t> want = written_bytes(dc.slot_b);
  const std::int64_t qkv_bytes = dc.slot_a.qkv.bytes();
  DeviceBuffer saved(qkv_bytes, "saved qkv");
  // A stream of its own, as the timing code uses: programmatic serialization is a property of
  // the edge between two launches in one stream.
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(launch_pdl_producer(saved.get(), dc.slot_a.qkv.get(), qkv_bytes, 0, stream),
            cudaSuccess);
  ASSERT_EQ(launch_pdl_producer(dc.slot_a.qkv.get(), nullptr, qkv_bytes, 0x5a, stream),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  const std::vector<std::uint8_t> filled = dc.slot_a.qkv.to_host();
  for (std::uint8_t b : filled)
    ASSERT_EQ(b, 0x5a);
  ASSERT_EQ(launch_pdl_producer(dc.slot_a.qkv.get(), saved.get(), qkv_bytes, 0, stream),
            cudaSuccess);
  RopeKvArgs a = dc.args(OutputSlot::a);
  a.programmatic_dependent_launch = true;
  EXPECT_EQ(rope_kv_fused(a, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_TRUE(written_bytes(dc.slot_a) == want);
}

// ---- (e) compare_device_bytes

TEST_F(GpuCompare, CountsAndLocatesDifferences) {
  constexpr std::int64_t kBytes = (1 << 20) + 5;
  DeviceBuffer a(kBytes, "compare a"), b(kBytes, "compare b");
  fill_sentinel_device(a.get(), kBytes, 5);
  fill_sentinel_device(b.get(), kBytes, 5);
  ByteDiff d = compare_device_bytes(a.get(), b.get(), kBytes);
  EXPECT_EQ(d.count, 0);
  EXPECT_EQ(d.first, -1);

  // Flip four bytes of b; the first reported is the lowest offset whichever thread finds it.
  std::vector<std::uint8_t> host = b.to_host();
  for (std::int64_t at : {kBytes - 1, std::int64_t{500123}, std::int64_t{1000}, std::int64_t{7}})
    host[static_cast<std::size_t>(at)] ^= 0x01;
  b.upload(host.data(), kBytes);
  d = compare_device_bytes(a.get(), b.get(), kBytes);
  EXPECT_EQ(d.count, 4);
  EXPECT_EQ(d.first, 7);

  // Rows of 1000 bytes with columns [0, 10) excluded: 7 (col 7) and 1000 (col 0) are skipped,
  // 500123 (col 123) and kBytes - 1 = 1048580 (col 580) are counted.
  d = compare_device_bytes(a.get(), b.get(), kBytes, RowWindow{1000, 0, 10});
  EXPECT_EQ(d.count, 2);
  EXPECT_EQ(d.first, 500123);

  // A prefix only sees its own differences; zero bytes see none.
  d = compare_device_bytes(a.get(), b.get(), 1001);
  EXPECT_EQ(d.count, 2);
  EXPECT_EQ(d.first, 7);
  d = compare_device_bytes(a.get(), b.get(), 0);
  EXPECT_EQ(d.count, 0);
  EXPECT_EQ(d.first, -1);
}

// ---- (f) device conversions equal the host model's bits

__global__ void convert_kernel(const float* in, std::int64_t n, std::uint8_t* e4m3,
                               std::uint8_t* e5m2, std::uint16_t* bf16, std::uint16_t* fp16) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const float x = in[i];
    e4m3[i] = detail::float_to_fp8<CacheDType::fp8_e4m3>(x);
    e5m2[i] = detail::float_to_fp8<CacheDType::fp8_e5m2>(x);
    bf16[i] = __bfloat16_as_ushort(detail::from_float<__nv_bfloat16>(x));
    fp16[i] = __half_as_ushort(detail::from_float<__half>(x));
  }
}

// The cache path as the kernels run it: 8 q/k/v values -> fp8(x / scale), one chunk per thread.
template <typename T, CacheDType C>
__global__ void store_cache_kernel(const T* in, std::int64_t chunks, float scale,
                                   std::uint8_t* out) {
  const std::int64_t c = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (c < chunks)
    detail::store_cache_chunk<T, C, 8>(out + c * 8, detail::load_vec<T, 8>(in + c * 8), scale);
}

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// Floats where conversions go wrong: specials, every fp8 code and the midpoints between codes
// (ties) with their neighbours, the saturation edges, every fp16 midpoint (subnormals included),
// bf16 ties for every upper half, and random bit patterns (NaN payloads, fp32 subnormals).
std::vector<float> conversion_inputs() {
  std::vector<float> v;
  auto around = [&](float x) {
    for (float s : {x, -x}) {
      v.push_back(s);
      v.push_back(std::nextafter(s, std::numeric_limits<float>::infinity()));
      v.push_back(std::nextafter(s, -std::numeric_limits<float>::infinity()));
    }
  };
  for (std::uint32_t u :
       {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
        0xffbfffffu, 0x7fffffffu, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu})
    v.push_back(float_of(u));
  for (float x : {448.0f, 464.0f, 480.0f, 57344.0f, 61440.0f, 65504.0f, 65520.0f, 65536.0f})
    around(x);
  // fp8: each finite positive code, and the midpoint to the next one.
  for (auto decode : {&fp8_e4m3_to_float, &fp8_e5m2_to_float}) {
    for (int b = 0; b < 0x7f; ++b) {
      const float lo = decode(static_cast<std::uint8_t>(b));
      const float hi = decode(static_cast<std::uint8_t>(b + 1));
      if (!std::isfinite(lo) || !std::isfinite(hi)) continue;
      around(lo);
      around(lo + (hi - lo) / 2);  // exact: fp8 codes have at most 4 significant bits
    }
  }
  // fp16: every midpoint between neighbouring finite codes (12 significant bits: exact).
  for (std::uint32_t h = 0; h < 0x7bff; ++h) {
    const float lo = fp16_to_float(static_cast<std::uint16_t>(h));
    const float hi = fp16_to_float(static_cast<std::uint16_t>(h + 1));
    around(lo + (hi - lo) / 2);
  }
  // bf16: the exact tie and its neighbours below every upper half (NaN/Inf halves included).
  for (std::uint32_t hi = 0; hi < 0x10000; ++hi)
    for (std::uint32_t lo : {0x7fffu, 0x8000u, 0x8001u})
      v.push_back(float_of(hi << 16 | lo));
  std::mt19937 rng(2024);
  for (int i = 0; i < 100000; ++i)
    v.push_back(float_of(static_cast<std::uint32_t>(rng())));
  return v;
}

// Counts differences and prints the first few with the input that caused them.
template <typename T, typename Ref>
int count_mismatches(const char* what, const std::vector<float>& in, const std::vector<T>& got,
                     Ref ref) {
  int bad = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const T want = ref(in[i]);
    if (got[i] == want) continue;
    if (++bad <= 5)
      ADD_FAILURE() << what << "(0x" << std::hex << bits_of(in[i]) << " = " << in[i]
                    << "): device 0x" << static_cast<unsigned>(got[i]) << ", host 0x"
                    << static_cast<unsigned>(want) << std::dec;
  }
  return bad;
}

TEST_F(GpuConversions, RoundingMatchesHostModel) {
  const std::vector<float> in = conversion_inputs();
  ASSERT_GT(in.size(), 300000u);
  const auto n = static_cast<std::int64_t>(in.size());
  DeviceBuffer d_in(n * 4, "inputs"), d_e4m3(n, "e4m3"), d_e5m2(n, "e5m2"), d_bf16(n * 2, "bf16"),
      d_fp16(n * 2, "fp16");
  d_in.upload(in.data(), n * 4);
  convert_kernel<<<1024, 256>>>(
      static_cast<const float*>(d_in.get()), n, static_cast<std::uint8_t*>(d_e4m3.get()),
      static_cast<std::uint8_t*>(d_e5m2.get()), static_cast<std::uint16_t*>(d_bf16.get()),
      static_cast<std::uint16_t*>(d_fp16.get()));
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint8_t> e4m3(in.size()), e5m2(in.size());
  std::vector<std::uint16_t> bf16(in.size()), fp16(in.size());
  d_e4m3.download(e4m3.data(), n);
  d_e5m2.download(e5m2.data(), n);
  d_bf16.download(bf16.data(), n * 2);
  d_fp16.download(fp16.data(), n * 2);
  EXPECT_EQ(count_mismatches("e4m3", in, e4m3, &float_to_fp8_e4m3_satfinite), 0);
  EXPECT_EQ(count_mismatches("e5m2", in, e5m2, &float_to_fp8_e5m2_satfinite), 0);
  EXPECT_EQ(count_mismatches("bf16", in, bf16, &float_to_bf16), 0);
  EXPECT_EQ(count_mismatches("fp16", in, fp16, &float_to_fp16), 0);
}

// Every bf16 and fp16 code through the cache store, against fp8(float(x) / scale) on the host.
TEST_F(GpuConversions, ScaledCacheStoreMatchesHostModel) {
  constexpr std::int64_t kCodes = 1 << 16;
  std::vector<std::uint16_t> codes(kCodes);
  for (std::int64_t i = 0; i < kCodes; ++i)
    codes[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(i);
  DeviceBuffer d_in(kCodes * 2, "codes"), d_out(kCodes, "fp8 out");
  d_in.upload(codes.data(), kCodes * 2);
  std::vector<std::uint8_t> out(kCodes);
  for (DType dtype : {DType::bf16, DType::fp16})
    for (CacheDType cache : {CacheDType::fp8_e4m3, CacheDType::fp8_e5m2})
      // Powers of two make exact fp8 ties (x / scale on a midpoint); the extremes push
      // quotients past fp32's range both ways, and 1e-40 is an fp32 subnormal.
      for (float scale : {0.7f, 1.3f, 0.01f, 1000.0f, 0.3137f, 0.0037f, 7.77f, 1.0f / 3.0f, 0.5f,
                          2.0f, 0.125f, 3.0f, 448.0f, 1e-30f, 1e-40f, 1e30f, 0x1.fffffep-1f}) {
        auto launch = [&](auto tag, auto kind) {
          using T = decltype(tag);
          store_cache_kernel<T, decltype(kind)::value>
              <<<kCodes / 8 / 128, 128>>>(static_cast<const T*>(d_in.get()), kCodes / 8, scale,
                                          static_cast<std::uint8_t*>(d_out.get()));
        };
        const bool e4m3 = cache == CacheDType::fp8_e4m3;
        using E4 = std::integral_constant<CacheDType, CacheDType::fp8_e4m3>;
        using E5 = std::integral_constant<CacheDType, CacheDType::fp8_e5m2>;
        if (dtype == DType::bf16)
          e4m3 ? launch(__nv_bfloat16{}, E4{}) : launch(__nv_bfloat16{}, E5{});
        else
          e4m3 ? launch(__half{}, E4{}) : launch(__half{}, E5{});
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        d_out.download(out.data(), kCodes);
        int bad = 0;
        for (std::int64_t i = 0; i < kCodes; ++i) {
          const float x = load_scalar(dtype, codes.data(), i) / scale;
          const std::uint8_t want =
              e4m3 ? float_to_fp8_e4m3_satfinite(x) : float_to_fp8_e5m2_satfinite(x);
          if (out[static_cast<std::size_t>(i)] != want && ++bad <= 3)
            ADD_FAILURE() << to_string(dtype) << " code 0x" << std::hex << i << " / " << scale
                          << " -> " << to_string(cache) << ": device 0x"
                          << static_cast<unsigned>(out[static_cast<std::size_t>(i)]) << ", host 0x"
                          << static_cast<unsigned>(want) << std::dec;
        }
        EXPECT_EQ(bad, 0) << to_string(dtype) << " " << to_string(cache) << " scale " << scale;
      }
}

// fp32 q/k/v through the cache store: the conversion edge cases (ties, specials, subnormals,
// random bit patterns) divided by several scales, against the host's float division.
TEST_F(GpuConversions, ScaledCacheStoreOfFloatsMatchesHostModel) {
  std::vector<float> in = conversion_inputs();
  in.resize(in.size() / 8 * 8);
  const auto n = static_cast<std::int64_t>(in.size());
  DeviceBuffer d_in(n * 4, "inputs"), d_out(n, "fp8 out");
  d_in.upload(in.data(), n * 4);
  std::vector<std::uint8_t> out(in.size());
  for (float scale : {0.7f, 1.3f, 0.5f, 3.0f, 1e-30f, 1e-40f, 1e30f, 0x1.fffffep-1f}) {
    for (bool e4m3 : {true, false}) {
      const auto* src = static_cast<const float*>(d_in.get());
      auto* dst = static_cast<std::uint8_t*>(d_out.get());
      const auto blocks = static_cast<unsigned>((n / 8 + 127) / 128);
      if (e4m3)
        store_cache_kernel<float, CacheDType::fp8_e4m3><<<blocks, 128>>>(src, n / 8, scale, dst);
      else
        store_cache_kernel<float, CacheDType::fp8_e5m2><<<blocks, 128>>>(src, n / 8, scale, dst);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      d_out.download(out.data(), n);
      const auto want = [&](float x) {
        return e4m3 ? float_to_fp8_e4m3_satfinite(x / scale)
                    : float_to_fp8_e5m2_satfinite(x / scale);
      };
      EXPECT_EQ(count_mismatches(e4m3 ? "e4m3(x/scale)" : "e5m2(x/scale)", in, out, want), 0)
          << "scale " << scale;
    }
  }
}

// ---- (g) the work-index divider on the device (fast_divmod.h)

__global__ void fast_div_kernel(FastDivmod f, const std::uint32_t* n, std::int64_t count,
                                std::uint32_t* q, std::uint32_t* r) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < count) f.divmod(n[i], q[i], r[i]);
}

TEST_F(GpuConversions, FastDivmodEqualsDivisionOnTheDevice) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> any(0, 0x7fffffffu);
  std::vector<std::uint32_t> n(1 << 16);
  for (std::uint32_t& x : n)
    x = any(rng);
  for (std::uint32_t i = 0; i < 4096; ++i)
    n[i] = i;  // small dividends, exhaustively
  n[4096] = 0x7fffffffu;
  const auto count = static_cast<std::int64_t>(n.size());
  DeviceBuffer d_n(count * 4, "dividends"), d_q(count * 4, "quotients"), d_r(count * 4, "rests");
  d_n.upload(n.data(), count * 4);
  std::vector<std::uint32_t> q(n.size()), r(n.size());
  for (std::uint32_t d : {1u, 2u, 3u, 7u, 16u, 17u, 88u, 448u, 1000u, 65535u, 65537u, 1u << 20,
                          (1u << 20) + 1, 0x7fffffffu}) {
    fast_div_kernel<<<static_cast<unsigned>(count / 256), 256>>>(
        FastDivmod(d), static_cast<const std::uint32_t*>(d_n.get()), count,
        static_cast<std::uint32_t*>(d_q.get()), static_cast<std::uint32_t*>(d_r.get()));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    d_q.download(q.data(), count * 4);
    d_r.download(r.data(), count * 4);
    int bad = 0;
    for (std::size_t i = 0; i < n.size(); ++i)
      if ((q[i] != n[i] / d || r[i] != n[i] % d) && ++bad <= 3)
        ADD_FAILURE() << n[i] << " / " << d << ": device " << q[i] << " r " << r[i];
    EXPECT_EQ(bad, 0) << "divisor " << d;
  }
}

// ---- (h) a 2^20-token launch

// 16x1x64 bf16: a qkv row is 1152 elements (2304 bytes), so the last tokens' rows start past
// 2^31 bytes, and 76 work units per token make a grid of ~620k CTAs. The golden model checks a
// sample of tokens (the first and last among them) and every untargeted cache entry.
TEST_F(GpuLargeT, MillionTokensValidateSampled) {
  const CaseSpec s = make_case(DType::bf16, CacheDType::fp8_e4m3, heads(16, 1, 64), RopeStyle::neox,
                               "nhd", std::int64_t{1} << 20);
  ASSERT_FALSE(case_problem(s).has_value());
  const TensorPlan p = make_tensor_plan(s);
  ASSERT_GT(p.qkv_bytes(), std::int64_t{1} << 31);
  const CaseValidation v = validate_spec(s, ValidateOptions{});
  EXPECT_EQ(to_string(v.disposition), "passed") << v.detail;
  EXPECT_EQ(v.mismatches, 0) << v.first_mismatch;
  EXPECT_NE(v.detail.find("of 1048576 tokens"), std::string::npos) << v.detail;
}

}  // namespace
}  // namespace rkv
