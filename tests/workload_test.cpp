// The workload builder (workload.h): where each tensor of a case lives for every cache layout and
// MLA, the seeded small inputs and their promises (reproducible, unique slots, skipped tokens,
// padding, per-head scales, the cos/sin table), the bytes-moved floor on a hand-worked case, and
// the seeded q/k/v values and sentinel bytes (seeded_fill.h) the device fills must reproduce.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "device/seeded_fill.h"
#include "host_numeric.h"
#include "plan/workload.h"

namespace rkv {
namespace {

// bf16 32x8x128, 100 tokens, 16-slot blocks: Tc = 100, so num_blocks = ceil(125 / 16) + 1 = 9.
CaseSpec gqa_spec(const std::string& layout) {
  CaseSpec s;
  s.tokens = 100;
  s.layout = *CacheLayout::parse(layout);
  return s;
}

struct Strides {
  std::int64_t block, slot, head;
};

void expect_strides(const TensorPlan& p, Strides want) {
  EXPECT_EQ(p.block_stride, want.block);
  EXPECT_EQ(p.slot_stride, want.slot);
  EXPECT_EQ(p.head_stride, want.head);
}

// ---- make_tensor_plan

TEST(TensorPlan, FusedQkvColumns) {
  const TensorPlan p = make_tensor_plan(gqa_spec("nhd"));
  EXPECT_EQ(p.tokens, 100);
  EXPECT_EQ(p.cache_tokens, 100);
  EXPECT_EQ(p.row_elems, 32 * 128 + 2 * 8 * 128);  // [q | k | v]
  EXPECT_EQ(p.q_col, 0);
  EXPECT_EQ(p.k_col, 32 * 128);
  EXPECT_EQ(p.v_col, 32 * 128 + 8 * 128);
  EXPECT_EQ(p.rot_dim, 128);
  EXPECT_EQ(p.q_rot_offset, 0);
  EXPECT_EQ(p.elem_bytes, 2u);
  EXPECT_EQ(p.cache_elem_bytes, 2u);
  EXPECT_EQ(p.cos_sin_elem_bytes, 2u);
  EXPECT_EQ(p.qkv_bytes(), 100 * 6144 * 2);
  EXPECT_EQ(p.query_out_bytes(), 0);
}

TEST(TensorPlan, CacheHasSpareBlocks) {
  const TensorPlan p = make_tensor_plan(gqa_spec("nhd"));
  EXPECT_EQ(p.block_size, 16);
  EXPECT_EQ(p.num_blocks, 9);
  // More slots than cached tokens, so some entries stay untargeted and keep their sentinel.
  EXPECT_GT(p.num_blocks * p.block_size, p.cache_tokens + p.cache_tokens / 4);
}

TEST(TensorPlan, Nhd) {
  const TensorPlan p = make_tensor_plan(gqa_spec("nhd"));  // [9, 16, 8, 128] twice
  expect_strides(p, {16 * 8 * 128, 8 * 128, 128});
  EXPECT_EQ(p.cache_tensors, 2);
  EXPECT_EQ(p.cache_elems, 9 * 16 * 8 * 128);
  EXPECT_EQ(p.k_offset, 0);
  EXPECT_EQ(p.v_offset, 0);
  EXPECT_EQ(p.cache_bytes(), 9 * 16 * 8 * 128 * 2);
}

TEST(TensorPlan, Hnd) {
  const TensorPlan p = make_tensor_plan(gqa_spec("hnd"));  // [9, 8, 16, 128] twice
  expect_strides(p, {8 * 16 * 128, 128, 16 * 128});
  EXPECT_EQ(p.cache_tensors, 2);
  EXPECT_EQ(p.cache_elems, 9 * 8 * 16 * 128);
}

TEST(TensorPlan, PackedNhd) {
  const TensorPlan p = make_tensor_plan(gqa_spec("packed_nhd"));  // [9, 16, 8, 256], K | V
  expect_strides(p, {16 * 8 * 256, 8 * 256, 256});
  EXPECT_EQ(p.cache_tensors, 1);
  EXPECT_EQ(p.cache_elems, 9 * 16 * 8 * 256);
  EXPECT_EQ(p.k_offset, 0);
  EXPECT_EQ(p.v_offset, 128);
}

TEST(TensorPlan, PackedHnd) {
  const TensorPlan p = make_tensor_plan(gqa_spec("packed_hnd"));  // [9, 8, 16, 256], K | V
  expect_strides(p, {8 * 16 * 256, 256, 16 * 256});
  EXPECT_EQ(p.cache_tensors, 1);
  EXPECT_EQ(p.v_offset, 128);
}

TEST(TensorPlan, NonPresetOrders) {
  const TensorPlan hbs = make_tensor_plan(gqa_spec("hbs"));  // [8, 9, 16, 128] twice
  expect_strides(hbs, {16 * 128, 128, 9 * 16 * 128});
  EXPECT_EQ(hbs.cache_tensors, 2);
  EXPECT_EQ(hbs.cache_elems, 8 * 9 * 16 * 128);
  const TensorPlan sbh = make_tensor_plan(gqa_spec("packed_sbh"));  // [16, 9, 8, 256]
  expect_strides(sbh, {8 * 256, 9 * 8 * 256, 256});
  EXPECT_EQ(sbh.cache_tensors, 1);
  EXPECT_EQ(sbh.v_offset, 128);
  EXPECT_EQ(sbh.cache_elems, 16 * 9 * 8 * 256);
}

TEST(TensorPlan, Mla) {
  CaseSpec s;
  s.heads = HeadConfig{16, 1, 0, true};
  s.tokens = 10;
  s.block_size = 64;
  const TensorPlan p = make_tensor_plan(s);
  EXPECT_EQ(p.num_q_heads, 16);
  EXPECT_EQ(p.num_kv_heads, 1);
  EXPECT_EQ(p.q_head_size, 192);
  EXPECT_EQ(p.k_head_size, 64);
  EXPECT_EQ(p.v_head_size, 512);
  EXPECT_EQ(p.rot_dim, 64);
  EXPECT_EQ(p.q_rot_offset, 128);
  // [q | kv_c | k_pe]: the "value" (kv_c) comes before the rotated key (k_pe).
  EXPECT_EQ(p.row_elems, 16 * 192 + 512 + 64);
  EXPECT_EQ(p.q_col, 0);
  EXPECT_EQ(p.v_col, 16 * 192);
  EXPECT_EQ(p.k_col, 16 * 192 + 512);
  // One [num_blocks, 64, 576] cache, entry = kv_c | k_pe.
  EXPECT_EQ(p.cache_tensors, 1);
  EXPECT_EQ(p.num_blocks, 2);  // ceil((10 + 2) / 64) + 1
  expect_strides(p, {64 * 576, 576, 576});
  EXPECT_EQ(p.v_offset, 0);
  EXPECT_EQ(p.k_offset, 512);
  EXPECT_EQ(p.cache_elems, 2 * 64 * 576);
}

TEST(TensorPlan, OptionsChangeSizes) {
  CaseSpec s = gqa_spec("nhd");
  s.cache_dtype = CacheDType::fp8_e5m2;
  s.query_out = QueryOut::separate;
  s.cos_sin_fp32 = true;
  s.rot_dim = 64;
  const TensorPlan p = make_tensor_plan(s);
  EXPECT_EQ(p.cache_elem_bytes, 1u);
  EXPECT_EQ(p.cos_sin_elem_bytes, 4u);
  EXPECT_EQ(p.rot_dim, 64);
  EXPECT_EQ(p.query_out_bytes(), 100 * 32 * 128 * 2);
  EXPECT_EQ(p.cache_bytes(), p.cache_elems);

  s = gqa_spec("nhd");
  s.dtype = DType::fp32;
  EXPECT_EQ(make_tensor_plan(s).elem_bytes, 4u);
  EXPECT_EQ(make_tensor_plan(s).cache_elem_bytes, 4u);
}

TEST(TensorPlan, SlotModesSetCacheTokens) {
  CaseSpec s = gqa_spec("nhd");
  s.slots = SlotMode::padded;
  EXPECT_EQ(make_tensor_plan(s).cache_tokens, 75);  // T - T/4
  s.slots = SlotMode::all_invalid;
  EXPECT_EQ(make_tensor_plan(s).cache_tokens, 100);
  s.slots = SlotMode::rope_only;
  const TensorPlan p = make_tensor_plan(s);
  EXPECT_EQ(p.cache_tokens, 0);
  EXPECT_FALSE(p.has_slots());
}

// ---- make_host_inputs

TEST(HostInputs, SameSeedSameInputs) {
  CaseSpec s = gqa_spec("nhd");
  s.cache_dtype = CacheDType::fp8_e4m3;
  s.scale = ScaleKind::per_head;
  s.seed = 42;
  const TensorPlan p = make_tensor_plan(s);
  const HostInputs a = make_host_inputs(p), b = make_host_inputs(p);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.slots, b.slots);
  EXPECT_EQ(a.k_scale, b.k_scale);
  EXPECT_EQ(a.v_scale, b.v_scale);
  EXPECT_EQ(a.cos_sin, b.cos_sin);
}

TEST(HostInputs, OtherSeedOtherInputs) {
  CaseSpec s = gqa_spec("nhd");
  s.cache_dtype = CacheDType::fp8_e4m3;
  s.scale = ScaleKind::per_head;
  const HostInputs a = make_host_inputs(make_tensor_plan(s));
  s.seed = 1;
  const HostInputs b = make_host_inputs(make_tensor_plan(s));
  EXPECT_NE(a.positions, b.positions);
  EXPECT_NE(a.slots, b.slots);
  EXPECT_NE(a.k_scale, b.k_scale);
  EXPECT_EQ(a.cos_sin, b.cos_sin);  // the table depends on R and dtype only
}

TEST(HostInputs, PositionsInsideTheTable) {
  CaseSpec s = gqa_spec("nhd");
  s.tokens = 5000;
  const TensorPlan p = make_tensor_plan(s);
  const HostInputs in = make_host_inputs(p);
  ASSERT_EQ(in.positions.size(), 5000u);
  std::set<std::int64_t> distinct;
  for (std::int64_t x : in.positions) {
    ASSERT_GE(x, 0);
    ASSERT_LT(x, p.max_position);
    distinct.insert(x);
  }
  EXPECT_GT(distinct.size(), 2000u);  // spread over the table, not a constant
}

TEST(HostInputs, SlotsUniqueInRangeWithSkips) {
  for (std::int64_t tokens : {2, 3, 100, 1000}) {
    CaseSpec s = gqa_spec("nhd");
    s.tokens = tokens;
    const TensorPlan p = make_tensor_plan(s);
    const HostInputs in = make_host_inputs(p);
    ASSERT_EQ(static_cast<std::int64_t>(in.slots.size()), tokens);
    std::set<std::int64_t> seen;
    std::int64_t skipped = 0;
    for (std::int64_t slot : in.slots) {
      if (slot == -1) {
        ++skipped;
        continue;
      }
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, p.num_blocks * p.block_size);
      EXPECT_TRUE(seen.insert(slot).second) << "slot " << slot << " twice, T=" << tokens;
    }
    EXPECT_GE(skipped, 1) << "T=" << tokens;  // always one skip from two tokens on
    if (tokens >= 100) {                      // about 1 in 16 otherwise
      EXPECT_GT(skipped, tokens / 40) << "T=" << tokens;
      EXPECT_LT(skipped, tokens / 8) << "T=" << tokens;
    }
  }
}

TEST(HostInputs, AllInvalidSkipsEveryToken) {
  CaseSpec s = gqa_spec("nhd");
  s.slots = SlotMode::all_invalid;
  const HostInputs in = make_host_inputs(make_tensor_plan(s));
  ASSERT_EQ(in.slots.size(), 100u);
  for (std::int64_t slot : in.slots)
    EXPECT_EQ(slot, -1);
}

TEST(HostInputs, RopeOnlyHasNoSlots) {
  CaseSpec s = gqa_spec("nhd");
  s.slots = SlotMode::rope_only;
  const HostInputs in = make_host_inputs(make_tensor_plan(s));
  EXPECT_TRUE(in.slots.empty());
  EXPECT_EQ(in.positions.size(), 100u);
  EXPECT_EQ(host_side(in).slot_mapping, nullptr);
  EXPECT_EQ(host_side(in).positions, in.positions.data());
}

TEST(HostInputs, PaddedHasFewerSlotsThanTokens) {
  CaseSpec s = gqa_spec("nhd");
  s.slots = SlotMode::padded;
  s.tokens = 9;
  const HostInputs in = make_host_inputs(make_tensor_plan(s));
  EXPECT_EQ(in.positions.size(), 9u);
  EXPECT_EQ(in.slots.size(), 7u);  // 9 - max(1, 9/4)
}

TEST(HostInputs, Scales) {
  CaseSpec s = gqa_spec("nhd");
  EXPECT_TRUE(make_host_inputs(make_tensor_plan(s)).k_scale.empty());  // auto: no scale

  s.cache_dtype = CacheDType::fp8_e4m3;
  HostInputs in = make_host_inputs(make_tensor_plan(s));
  EXPECT_EQ(in.k_scale, std::vector<float>{0.7f});
  EXPECT_EQ(in.v_scale, std::vector<float>{1.3f});

  s.scale = ScaleKind::per_head;
  in = make_host_inputs(make_tensor_plan(s));
  ASSERT_EQ(in.k_scale.size(), 8u);
  ASSERT_EQ(in.v_scale.size(), 8u);
  std::set<float> distinct;
  for (const std::vector<float>* v : {&in.k_scale, &in.v_scale})
    for (float x : *v) {
      EXPECT_GE(x, 0.5f);
      EXPECT_LE(x, 1.5f);
      distinct.insert(x);
    }
  EXPECT_EQ(distinct.size(), 16u);  // every head (and K vs V) has its own scale
}

TEST(HostInputs, CosSinTable) {
  CaseSpec s = gqa_spec("nhd");
  s.rot_dim = 64;
  const TensorPlan p = make_tensor_plan(s);
  const HostInputs in = make_host_inputs(p);
  ASSERT_EQ(in.cos_sin.size(), static_cast<std::size_t>(p.max_position * 64 * 2));
  const int half = 32;
  for (int i = 0; i < half; ++i) {  // position 0: angle 0
    EXPECT_EQ(load_scalar(DType::bf16, in.cos_sin.data(), i), 1.0f) << i;
    EXPECT_EQ(load_scalar(DType::bf16, in.cos_sin.data(), half + i), 0.0f) << i;
  }
  // Row 1: cos/sin of f_i = 10000^(-2i/R), rounded to bf16 (8 significant bits).
  for (int i : {0, 1, half - 1}) {
    const double f = std::pow(10000.0, -2.0 * i / 64);
    EXPECT_NEAR(load_scalar(DType::bf16, in.cos_sin.data(), 64 + i), std::cos(f), 4e-3) << i;
    EXPECT_NEAR(load_scalar(DType::bf16, in.cos_sin.data(), 64 + half + i), std::sin(f), 4e-3) << i;
  }
}

TEST(HostInputs, CosSinTableInFp32) {
  CaseSpec s = gqa_spec("nhd");
  s.cos_sin_fp32 = true;
  const TensorPlan p = make_tensor_plan(s);
  const HostInputs in = make_host_inputs(p);
  ASSERT_EQ(in.cos_sin.size(), static_cast<std::size_t>(p.max_position * 128 * 4));
  std::vector<float> t(in.cos_sin.size() / 4);
  std::memcpy(t.data(), in.cos_sin.data(), in.cos_sin.size());
  EXPECT_EQ(t[0], 1.0f);
  EXPECT_EQ(t[64], 0.0f);
  const std::int64_t p7 = 7 * 128;  // position 7, i = 3: angle 7 * 10000^(-6/128)
  const double angle = 7.0 * std::pow(10000.0, -6.0 / 128);
  EXPECT_NEAR(t[p7 + 3], std::cos(angle), 1e-5);
  EXPECT_NEAR(t[p7 + 64 + 3], std::sin(angle), 1e-5);
}

// ---- min_bytes_moved, worked by hand

// bf16 2x1x64, T = 4, positions {5, 5, 7, 9} (3 distinct rows), slots {0, -1, 3, 4} (3 cached).
struct SmallTraffic {
  TensorPlan plan;
  HostInputs in;
  explicit SmallTraffic(CaseSpec s) {
    s.heads = HeadConfig{2, 1, 64, false};
    s.tokens = 4;
    plan = make_tensor_plan(s);
    in = make_host_inputs(plan);
    in.positions = {5, 5, 7, 9};
    if (plan.has_slots()) in.slots = {0, -1, 3, 4};
  }
};

TEST(MinBytesMoved, FullRotaryInPlace) {
  const SmallTraffic c{CaseSpec{}};
  const std::int64_t want = 4 * 8                 // positions
                            + 2 * 4 * 2 * 64 * 2  // q read + written in place
                            + 2 * 4 * 1 * 64 * 2  // k read + written back (all rotated)
                            + 3 * 64 * 2          // v rows of the 3 cached tokens
                            + 3 * 128 * 2         // K and V entries written
                            + 4 * 8               // slot ids
                            + 3 * 64 * 2;         // 3 distinct cos/sin rows
  EXPECT_EQ(want, 4672);
  EXPECT_EQ(min_bytes_moved(c.plan, c.in), want);
}

TEST(MinBytesMoved, Fp8CacheOnlySeparateQueryPartialRotary) {
  CaseSpec s;
  s.cache_dtype = CacheDType::fp8_e4m3;
  s.key_out = KeyOut::cache_only;
  s.query_out = QueryOut::separate;
  s.rot_dim = 32;
  const SmallTraffic c{s};
  const std::int64_t want = 4 * 8                 // positions
                            + 2 * 4 * 2 * 64 * 2  // all of q read, all of query_out written
                            + 3 * 64 * 2          // k of cached tokens only (not written back)
                            + 3 * 64 * 2          // v of cached tokens
                            + 3 * 128 * 1         // fp8 K and V entries
                            + 4 * 8               // slot ids
                            + 2 * 4               // k_scale, v_scale
                            + 3 * 32 * 2;         // 3 distinct rows of R = 32
  EXPECT_EQ(want, 3464);
  EXPECT_EQ(min_bytes_moved(c.plan, c.in), want);
}

TEST(MinBytesMoved, RopeOnly) {
  CaseSpec s;
  s.slots = SlotMode::rope_only;
  const SmallTraffic c{s};
  EXPECT_EQ(min_bytes_moved(c.plan, c.in),
            4 * 8 + 2 * 4 * 2 * 64 * 2 + 2 * 4 * 64 * 2 + 3 * 64 * 2);
}

// ---- seeded values and sentinel bytes

TEST(SeededFill, ValuesInRangeWithScaledOutliers) {
  int outliers = 0;
  constexpr int kN = 200000;
  for (int i = 0; i < kN; ++i) {
    const float v = seeded_value(7, 1, static_cast<std::uint64_t>(i));
    // Values are multiples of 2^-22 (24 random bits over [-2, 2)), exact in fp32.
    if ((seeded_bits(7, 1, static_cast<std::uint64_t>(i)) & 63u) == 0) {
      ++outliers;
      const float unit = v / 300.0f;
      ASSERT_GE(unit, -2.0f) << i;
      ASSERT_LT(unit, 2.0f) << i;
    } else {
      ASSERT_GE(v, -2.0f) << i;
      ASSERT_LT(v, 2.0f) << i;
      ASSERT_EQ(std::ldexp(v, 22), std::floor(std::ldexp(v, 22))) << i;
    }
  }
  // 1 in 64 scaled by 300, so fp8 caches saturate sometimes.
  EXPECT_GT(outliers, kN / 64 * 8 / 10);
  EXPECT_LT(outliers, kN / 64 * 12 / 10);
}

TEST(SeededFill, HostFillIsTheSeededValueRounded) {
  constexpr std::int64_t kN = 4096;
  std::vector<std::uint16_t> bf16(kN), fp16(kN);
  std::vector<float> fp32(kN);
  fill_values_host(bf16.data(), DType::bf16, kN, 3, 1);
  fill_values_host(fp16.data(), DType::fp16, kN, 3, 1);
  fill_values_host(fp32.data(), DType::fp32, kN, 3, 1);
  for (std::int64_t i = 0; i < kN; ++i) {
    const float v = seeded_value(3, 1, static_cast<std::uint64_t>(i));
    ASSERT_EQ(fp32[i], v) << i;
    ASSERT_EQ(bf16[i], float_to_bf16(v)) << i;
    ASSERT_EQ(fp16[i], float_to_fp16(v)) << i;
  }
}

TEST(SeededFill, DeterministicPerSeedAndStream) {
  constexpr std::int64_t kN = 1000;
  auto fill = [](std::uint64_t seed, std::uint64_t stream) {
    std::vector<std::uint16_t> v(kN);
    fill_values_host(v.data(), DType::bf16, kN, seed, stream);
    return v;
  };
  EXPECT_EQ(fill(5, 1), fill(5, 1));
  EXPECT_NE(fill(5, 1), fill(6, 1));
  EXPECT_NE(fill(5, 1), fill(5, 2));
}

TEST(SeededFill, SentinelBytesVary) {
  constexpr std::int64_t kN = 4099;  // not a multiple of 8: the tail of a 64-bit draw
  std::vector<std::uint8_t> a(kN), b(kN), c(kN);
  fill_sentinel_host(a.data(), kN, 11);
  fill_sentinel_host(b.data(), kN, 11);
  fill_sentinel_host(c.data(), kN, 12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::set<std::uint8_t> distinct(a.begin(), a.end());
  EXPECT_GT(distinct.size(), 200u);
  // Neighbouring bytes differ, so a copy shifted by one byte (or one element) shows.
  std::int64_t same_as_next = 0;
  for (std::int64_t i = 0; i + 1 < kN; ++i) {
    same_as_next += a[i] == a[i + 1];
    ASSERT_EQ(a[i], sentinel_byte(11, static_cast<std::uint64_t>(i))) << i;
  }
  EXPECT_LT(same_as_next, kN / 64);
}

}  // namespace
}  // namespace rkv
