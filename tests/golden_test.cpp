// The golden model against hand-worked cases: rotation values, rounding, fp8 codes, cache
// placement for every layout, and the op's structural promises (skipped slots, padding tokens,
// RoPE-only, no key write-back, separate query output, MLA, token subsets, threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cache_layout.h"
#include "golden.h"
#include "host_numeric.h"

namespace rkv {
namespace {

constexpr unsigned char kSentinel = 0xa5;
using Bytes = std::vector<unsigned char>;

float float_of(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// One small problem on host memory. q, k and v are views into one fused tensor
// qkv: [T, Hq*Dq + Hkv*Dk + Hkv*Dv], as serving engines lay them out, so their token strides are
// not their row sizes. Caches start filled with kSentinel. bind() points `args` at the buffers,
// so a copy of a HostCase is an independent problem.
struct HostCase {
  RopeKvArgs args;
  Bytes qkv, q_out, table, k_cache, v_cache;
  std::vector<std::int64_t> positions, slots;
  std::vector<float> k_scale{1.0f}, v_scale{1.0f};
  bool use_slots = true, use_q_out = false, packed = false;
  std::int64_t k_cache_offset = 0, v_cache_offset = 0;  // elements into the cache allocation

  HostCase(DType dtype, int tokens, int heads_q, int heads_kv, int head_size, int rot_dim) {
    args.dtype = dtype;
    args.num_tokens = args.num_cache_tokens = tokens;
    args.num_q_heads = heads_q;
    args.num_kv_heads = heads_kv;
    args.q_head_size = args.k_head_size = args.v_head_size = head_size;
    args.rot_dim = rot_dim;
    args.max_position = 8;
    positions.assign(tokens, 0);  // token t at position (3 + 2t) % 8
    for (int t = 0; t < tokens; ++t)
      positions[t] = (3 + 2 * t) % 8;
    slots.assign(tokens, -1);
    set_table_fill(3.0f);
  }

  std::size_t eb() const { return dtype_bytes(args.dtype); }
  std::size_t cb() const { return args.cache_dtype == CacheDType::auto_ ? eb() : 1; }
  std::int64_t row() const {
    return args.num_q_heads * args.q_head_size +
           args.num_kv_heads * (args.k_head_size + args.v_head_size);
  }
  void alloc_qkv() {
    qkv.assign(args.num_tokens * row() * eb(), 0);
    q_out.assign(args.num_tokens * args.num_q_heads * args.q_head_size * eb(), kSentinel);
  }

  // Every table row gets cos = sin = `fill` (a row that no test expects), in the table's dtype.
  void set_table_fill(float fill) {
    args.cos_sin_stride = args.rot_dim;
    const std::size_t tb = args.cos_sin_fp32 ? 4 : eb();
    table.assign(args.max_position * args.rot_dim * tb, 0);
    for (std::int64_t i = 0; i < args.max_position * args.rot_dim; ++i)
      table_put(i, fill);
  }
  void table_put(std::int64_t i, float x) {
    if (args.cos_sin_fp32)
      std::memcpy(table.data() + 4 * i, &x, 4);
    else
      store_scalar(args.dtype, table.data(), i, x);
  }
  void set_table_row(std::int64_t p, const std::vector<float>& c, const std::vector<float>& s) {
    for (std::size_t i = 0; i < c.size(); ++i) {
      table_put(p * args.cos_sin_stride + i, c[i]);
      table_put(p * args.cos_sin_stride + args.rot_dim / 2 + i, s[i]);
    }
  }

  std::int64_t q_at(int t, int h, int d) const { return t * row() + h * args.q_head_size + d; }
  std::int64_t k_at(int t, int h, int d) const {
    return t * row() + args.num_q_heads * args.q_head_size + h * args.k_head_size + d;
  }
  std::int64_t v_at(int t, int h, int d) const {
    return t * row() + args.num_q_heads * args.q_head_size + args.num_kv_heads * args.k_head_size +
           h * args.v_head_size + d;
  }
  float get(const Bytes& b, std::int64_t i) const { return load_scalar(args.dtype, b.data(), i); }
  void put(Bytes& b, std::int64_t i, float x) const { store_scalar(args.dtype, b.data(), i, x); }

  // The cache for `layout`, both tensors full of kSentinel.
  void use_layout(const CacheLayout& layout, std::int64_t num_blocks, int block_size) {
    const CacheGeometry g = make_cache_geometry(layout, num_blocks, block_size, args.num_kv_heads,
                                                args.k_head_size, args.v_head_size);
    args.num_blocks = num_blocks;
    args.block_size = block_size;
    packed = layout.packed;
    k_cache.assign(g.elements_per_tensor * cb(), kSentinel);
    v_cache.assign(packed ? 0 : g.elements_per_tensor * cb(), kSentinel);
    args.key_cache = g.key_view(nullptr);
    args.value_cache = g.key_view(nullptr);
    v_cache_offset = g.value_offset;
  }

  void bind() {
    args.positions = positions.data();
    args.slot_mapping = use_slots ? slots.data() : nullptr;
    args.cos_sin_cache = table.data();
    const std::int64_t r = row();
    args.query = {qkv.data(), r, args.q_head_size};
    args.key = {qkv.data() + (q_at(0, args.num_q_heads, 0)) * eb(), r, args.k_head_size};
    args.value = {qkv.data() + k_at(0, args.num_kv_heads, 0) * eb(), r, args.v_head_size};
    args.query_out = {use_q_out ? q_out.data() : nullptr, args.num_q_heads * args.q_head_size,
                      args.q_head_size};
    args.key_cache.data = k_cache.data() + k_cache_offset * cb();
    args.value_cache.data = (packed ? k_cache : v_cache).data() + v_cache_offset * cb();
    args.k_scale = k_scale.data();
    args.v_scale = v_scale.data();
  }
  void run(const std::vector<std::int64_t>* tokens = nullptr, int threads = 1) {
    bind();
    golden_rope_kv(args, tokens, threads);
  }
};

// ---- hand-worked rotations: D = 8, one token at position 3, q = 1..8, k = 2q (so k' = 2q').
// Table row 3: cos = {0.5, 1, 0, -0.5}, sin = {0.25, 0, 1, 0.75}; every other row holds 3s, so a
// wrong row shows. All values below are exact in bf16, fp16 and fp32.

struct HandParam {
  DType dtype;
  bool table_fp32;
};

class GoldenHand : public ::testing::TestWithParam<HandParam> {
 protected:
  HostCase make(RopeStyle style, int rot_dim) {
    HostCase c(GetParam().dtype, 1, 1, 1, 8, rot_dim);
    c.args.style = style;
    c.args.cos_sin_fp32 = GetParam().table_fp32;
    c.set_table_fill(3.0f);
    if (rot_dim == 8)
      c.set_table_row(3, {0.5f, 1.0f, 0.0f, -0.5f}, {0.25f, 0.0f, 1.0f, 0.75f});
    else
      c.set_table_row(3, {0.5f, 0.0f}, {0.25f, 1.0f});
    c.alloc_qkv();
    for (int d = 0; d < 8; ++d) {
      c.put(c.qkv, c.q_at(0, 0, d), d + 1.0f);
      c.put(c.qkv, c.k_at(0, 0, d), 2.0f * (d + 1));
      c.put(c.qkv, c.v_at(0, 0, d), -1.0f - d);
    }
    c.use_slots = false;
    return c;
  }
  void expect_rows(const HostCase& c, const std::vector<float>& q_want) {
    for (int d = 0; d < 8; ++d) {
      EXPECT_EQ(c.get(c.qkv, c.q_at(0, 0, d)), q_want[d]) << "q dim " << d;
      EXPECT_EQ(c.get(c.qkv, c.k_at(0, 0, d)), 2.0f * q_want[d]) << "k dim " << d;
      EXPECT_EQ(c.get(c.qkv, c.v_at(0, 0, d)), -1.0f - d) << "v dim " << d;
    }
  }
};

// neox pairs (v[i], v[i+4]): (1,5) c=.5 s=.25 -> (.5-1.25, 2.5+.25); (2,6) c=1 s=0 -> (2,6);
// (3,7) c=0 s=1 -> (-7,3); (4,8) c=-.5 s=.75 -> (-2-6, -4+3).
TEST_P(GoldenHand, NeoxFullRotary) {
  HostCase c = make(RopeStyle::neox, 8);
  c.run();
  expect_rows(c, {-0.75f, 2.0f, -7.0f, -8.0f, 2.75f, 6.0f, 3.0f, -1.0f});
}

// gpt-j pairs (v[2i], v[2i+1]): (1,2) -> (.5-.5, 1+.25); (3,4) -> (3,4); (5,6) -> (-6,5);
// (7,8) c=-.5 s=.75 -> (-3.5-6, -4+5.25).
TEST_P(GoldenHand, GptjFullRotary) {
  HostCase c = make(RopeStyle::gptj, 8);
  c.run();
  expect_rows(c, {0.0f, 1.25f, 3.0f, 4.0f, -6.0f, 5.0f, -9.5f, 1.25f});
}

// R = 4, cos = {.5, 0}, sin = {.25, 1}. neox pairs (1,3) -> (.5-.75, 1.5+.25), (2,4) -> (-4, 2);
// dims 4..7 pass through.
TEST_P(GoldenHand, NeoxPartialRotary) {
  HostCase c = make(RopeStyle::neox, 4);
  c.run();
  expect_rows(c, {-0.25f, -4.0f, 1.75f, 2.0f, 5.0f, 6.0f, 7.0f, 8.0f});
}

// gpt-j pairs (1,2) -> (0, 1.25), (3,4) -> (-4, 3); dims 4..7 pass through.
TEST_P(GoldenHand, GptjPartialRotary) {
  HostCase c = make(RopeStyle::gptj, 4);
  c.run();
  expect_rows(c, {0.0f, 1.25f, -4.0f, 3.0f, 5.0f, 6.0f, 7.0f, 8.0f});
}

// A separate query_out gets the rotated dims and a copy of the tail; query itself is untouched.
TEST_P(GoldenHand, SeparateQueryOutCopiesTailAndKeepsQuery) {
  HostCase c = make(RopeStyle::neox, 4);
  c.use_q_out = true;
  c.run();
  const std::vector<float> want = {-0.25f, -4.0f, 1.75f, 2.0f, 5.0f, 6.0f, 7.0f, 8.0f};
  for (int d = 0; d < 8; ++d) {
    EXPECT_EQ(c.get(c.q_out, d), want[d]) << d;
    EXPECT_EQ(c.get(c.qkv, c.q_at(0, 0, d)), d + 1.0f) << d;
    EXPECT_EQ(c.get(c.qkv, c.k_at(0, 0, d)), 2.0f * want[d]) << d;
  }
}

std::string hand_name(const ::testing::TestParamInfo<HandParam>& info) {
  const char* dtypes[] = {"bf16", "fp16", "fp32"};
  return std::string(dtypes[static_cast<int>(info.param.dtype)]) +
         (info.param.table_fp32 ? "_table_fp32" : "_table_dtype");
}

INSTANTIATE_TEST_SUITE_P(Dtypes, GoldenHand,
                         ::testing::Values(HandParam{DType::bf16, false},
                                           HandParam{DType::bf16, true},
                                           HandParam{DType::fp16, false},
                                           HandParam{DType::fp16, true},
                                           HandParam{DType::fp32, true}),
                         hand_name);

// ---- the fp32 operation order. D = R = 2, so both styles pair (v0, v1). e = 2^-12.
// token 0: x = 1+e, y = 1, c = 1+e, s = 1. x' = fma(x, c, -(y*s)) = (1+e)^2 - 1 = 2^-11 + 2^-24
//          exactly; an unfused x*c would round (1 + 2^-11 + 2^-24) to 1 + 2^-11 and give 2^-11.
// token 1: x = 1, y = 1+e, c = 1, s = 1+e. y*s = 1 + 2^-11 + 2^-24 rounds (tie, even) to
//          1 + 2^-11 before the fma, so x' = -2^-11, not -(2^-11 + 2^-24).
// y' is 2 + 2^-11 both times.
TEST(GoldenOrder, FmaWithSeparatelyRoundedProducts) {
  const float e = std::ldexp(1.0f, -12);
  HostCase c(DType::fp32, 2, 1, 1, 2, 2);
  c.args.cos_sin_fp32 = true;
  c.set_table_fill(3.0f);
  c.set_table_row(3, {1.0f + e}, {1.0f});
  c.set_table_row(5, {1.0f}, {1.0f + e});
  c.alloc_qkv();
  c.put(c.qkv, c.q_at(0, 0, 0), 1.0f + e);
  c.put(c.qkv, c.q_at(0, 0, 1), 1.0f);
  c.put(c.qkv, c.q_at(1, 0, 0), 1.0f);
  c.put(c.qkv, c.q_at(1, 0, 1), 1.0f + e);
  c.use_slots = false;
  c.run();
  EXPECT_EQ(c.get(c.qkv, c.q_at(0, 0, 0)), std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24));
  EXPECT_EQ(c.get(c.qkv, c.q_at(1, 0, 0)), -std::ldexp(1.0f, -11));
  EXPECT_EQ(c.get(c.qkv, c.q_at(0, 0, 1)), 2.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(c.get(c.qkv, c.q_at(1, 0, 1)), 2.0f + std::ldexp(1.0f, -11));
}

// The fp32 result is rounded once to bf16, to nearest even. q = (1, 1), s = 0, fp32 table:
// c = 1 + 2^-8 is a tie between 1 and 1 + 2^-7 (0x3f80, even); c = 1 + 2^-8 + 2^-10 is past it.
TEST(GoldenOrder, RoundsToBf16NearestEven) {
  HostCase c(DType::bf16, 2, 1, 1, 2, 2);
  c.args.cos_sin_fp32 = true;
  c.set_table_fill(3.0f);
  c.set_table_row(3, {1.0f + std::ldexp(1.0f, -8)}, {0.0f});
  c.set_table_row(5, {1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -10)}, {0.0f});
  c.alloc_qkv();
  for (int t = 0; t < 2; ++t)
    for (int d = 0; d < 2; ++d)
      c.put(c.qkv, c.q_at(t, 0, d), 1.0f);
  c.use_slots = false;
  c.run();
  std::uint16_t bits[4];
  for (int t = 0; t < 2; ++t)
    for (int d = 0; d < 2; ++d)
      std::memcpy(&bits[2 * t + d], &c.qkv[c.q_at(t, 0, d) * 2], 2);
  EXPECT_EQ(bits[0], 0x3f80);
  EXPECT_EQ(bits[1], 0x3f80);
  EXPECT_EQ(bits[2], 0x3f81);
  EXPECT_EQ(bits[3], 0x3f81);
}

// ---- fp8 caches. One token, identity rotation (cos 1, sin 0) on dims 0..1 and the rest
// unrotated, so k = v = the inputs below; the expected codes are worked by hand.
const float kInf = std::numeric_limits<float>::infinity();
const std::vector<float> kFp8Inputs = {
    1.0f, -1.0f, 1000.0f, -1000.0f, 81920.0f, kInf, std::numeric_limits<float>::quiet_NaN(), -0.0f};

HostCase fp8_case(CacheDType cache, int heads_kv, std::vector<float> k_scale,
                  std::vector<float> v_scale) {
  HostCase c(DType::bf16, 1, heads_kv, heads_kv, 8, 2);
  c.args.cache_dtype = cache;
  c.set_table_fill(3.0f);
  c.set_table_row(3, {1.0f}, {0.0f});
  c.alloc_qkv();
  for (int h = 0; h < heads_kv; ++h)
    for (int d = 0; d < 8; ++d) {
      c.put(c.qkv, c.k_at(0, h, d), kFp8Inputs[d]);
      c.put(c.qkv, c.v_at(0, h, d), kFp8Inputs[d]);
    }
  c.use_layout(*CacheLayout::parse("nhd"), 1, 4);
  c.slots = {2};
  c.k_scale = std::move(k_scale);
  c.v_scale = std::move(v_scale);
  c.args.scale_head_stride = c.k_scale.size() > 1 ? 1 : 0;
  return c;
}

// The 8 fp8 codes of (slot 2, head h) in an nhd cache of block_size 4.
std::vector<int> codes(const Bytes& cache, int heads_kv, int h) {
  const unsigned char* e = cache.data() + (2 * heads_kv + h) * 8;
  return std::vector<int>(e, e + 8);
}

// 1/0.7 = 1.43 (e4m3: 1.375 = 0x3b), 1000/0.7 = 1429 and beyond saturate to 448 (0x7e), NaN is
// 0x7f whatever its sign, -0 keeps its sign.
// 1/1.3 = 0.769 (e4m3: 0.75 = 0x34).
TEST(GoldenFp8, E4m3CodesPerTensorScales) {
  HostCase c = fp8_case(CacheDType::fp8_e4m3, 1, {0.7f}, {1.3f});
  c.run();
  EXPECT_EQ(codes(c.k_cache, 1, 0),
            (std::vector<int>{0x3b, 0xbb, 0x7e, 0xfe, 0x7e, 0x7e, 0x7f, 0x80}));
  EXPECT_EQ(codes(c.v_cache, 1, 0),
            (std::vector<int>{0x34, 0xb4, 0x7e, 0xfe, 0x7e, 0x7e, 0x7f, 0x80}));
}

// e5m2: 1/0.7 = 1.43 -> 1.5 (0x3e); 1000/0.7 = 1428.6 -> 1536 (0x66); 81920/0.7 and inf
// saturate to 57344 (0x7b). 1/1.3 = 0.769 -> 0.75 (0x3a); 1000/1.3 = 769.2 -> 768 (0x62);
// 81920/1.3 = 63015 is past 61440, so it saturates too.
TEST(GoldenFp8, E5m2CodesPerTensorScales) {
  HostCase c = fp8_case(CacheDType::fp8_e5m2, 1, {0.7f}, {1.3f});
  c.run();
  EXPECT_EQ(codes(c.k_cache, 1, 0),
            (std::vector<int>{0x3e, 0xbe, 0x66, 0xe6, 0x7b, 0x7b, 0x7f, 0x80}));
  EXPECT_EQ(codes(c.v_cache, 1, 0),
            (std::vector<int>{0x3a, 0xba, 0x62, 0xe2, 0x7b, 0x7b, 0x7f, 0x80}));
}

// Per-head scales: head 0 divides by 0.7, head 1 by 1.3, for K and V alike.
TEST(GoldenFp8, PerHeadScales) {
  HostCase c = fp8_case(CacheDType::fp8_e4m3, 2, {0.7f, 1.3f}, {1.3f, 0.7f});
  c.run();
  const std::vector<int> by_07 = {0x3b, 0xbb, 0x7e, 0xfe, 0x7e, 0x7e, 0x7f, 0x80};
  const std::vector<int> by_13 = {0x34, 0xb4, 0x7e, 0xfe, 0x7e, 0x7e, 0x7f, 0x80};
  EXPECT_EQ(codes(c.k_cache, 2, 0), by_07);
  EXPECT_EQ(codes(c.k_cache, 2, 1), by_13);
  EXPECT_EQ(codes(c.v_cache, 2, 0), by_13);
  EXPECT_EQ(codes(c.v_cache, 2, 1), by_07);
}

// x / scale is an IEEE division, not x * (1/scale). For these fp32 inputs (found by a search) the
// two differ across an e4m3 rounding tie:
//   0x3fad9999 / 0.7f = 0x3ff7ffff, just below the tie 1.9375 -> 1.875 (0x3f); the reciprocal
//     product lands on the tie itself and would round to 2.0 (0x40).
//   0x3fef3332 / 1.3f = 1.4375 exactly, a tie -> 1.5 (0x3c, even); the product is below it (0x3b).
TEST(GoldenFp8, DividesByTheScale) {
  for (const auto& [x_bits, scale, want] :
       {std::tuple{0x3fad9999u, 0.7f, 0x3f}, std::tuple{0x3fef3332u, 1.3f, 0x3c}}) {
    HostCase c(DType::fp32, 1, 1, 1, 4, 2);
    c.args.cache_dtype = CacheDType::fp8_e4m3;
    c.args.cos_sin_fp32 = true;
    c.set_table_fill(3.0f);
    c.set_table_row(3, {1.0f}, {0.0f});
    c.alloc_qkv();
    for (int d = 2; d < 4; ++d)
      c.put(c.qkv, c.k_at(0, 0, d), float_of(x_bits));
    c.use_layout(*CacheLayout::parse("nhd"), 1, 1);
    c.slots = {0};
    c.k_scale = {scale};
    c.run();
    EXPECT_EQ(c.k_cache[2], want) << std::hex << x_bits;
    EXPECT_EQ(c.k_cache[3], want) << std::hex << x_bits;
  }
}

// ---- structure. Table rows all cos 0, sin 1: neox (x, y) -> (-y, x), exact in every dtype.
// q(t, h, d) = 1 + 32t + 8h + d style small integers, distinct per tensor, so any misplaced or
// missing element shows.
constexpr int kBlocks = 3, kBlockSize = 4, kHeads = 2, kDim = 8;

float q_in(int t, int h, int d) {
  return 1.0f + 32 * t + 8 * h + d;
}
float k_in(int t, int h, int d) {
  return 0.5f + 32 * t + 8 * h + d;
}
float v_in(int t, int h, int d) {
  return -1.0f - 32 * t - 8 * h - d;
}

// The neox quarter turn of row `in` over dims [0, R).
float quarter_turn(float (*in)(int, int, int), int t, int h, int d, int rot) {
  if (d >= rot) return in(t, h, d);
  return d < rot / 2 ? -in(t, h, d + rot / 2) : in(t, h, d - rot / 2);
}

HostCase structure_case(const std::string& layout, int tokens, int cache_tokens, int rot = kDim) {
  HostCase c(DType::bf16, tokens, kHeads, kHeads, kDim, rot);
  c.args.num_cache_tokens = cache_tokens;
  c.set_table_fill(0.0f);
  for (int p = 0; p < 8; ++p) {
    c.set_table_row(p, std::vector<float>(rot / 2, 0.0f), std::vector<float>(rot / 2, 1.0f));
  }
  c.alloc_qkv();
  for (int t = 0; t < tokens; ++t)
    for (int h = 0; h < kHeads; ++h)
      for (int d = 0; d < kDim; ++d) {
        c.put(c.qkv, c.q_at(t, h, d), q_in(t, h, d));
        c.put(c.qkv, c.k_at(t, h, d), k_in(t, h, d));
        c.put(c.qkv, c.v_at(t, h, d), v_in(t, h, d));
      }
  c.use_layout(*CacheLayout::parse(layout), kBlocks, kBlockSize);
  c.slots.assign(cache_tokens, -1);
  return c;
}

// Element index of (block b, offset o, head h, dim d) worked out from each layout's shape.
std::int64_t expected_index(const std::string& layout, int b, int o, int h, int d) {
  const int D = kDim, D2 = 2 * kDim, H = kHeads, BS = kBlockSize, NB = kBlocks;
  if (layout == "nhd") return ((b * BS + o) * H + h) * D + d;          // [NB, BS, H, D]
  if (layout == "hnd") return ((b * H + h) * BS + o) * D + d;          // [NB, H, BS, D]
  if (layout == "packed_nhd") return ((b * BS + o) * H + h) * D2 + d;  // [NB, BS, H, 2D]
  if (layout == "packed_hnd") return ((b * H + h) * BS + o) * D2 + d;  // [NB, H, BS, 2D]
  if (layout == "hbs") return ((h * NB + b) * BS + o) * D + d;         // [H, NB, BS, D]
  if (layout == "packed_sbh") return ((o * NB + b) * H + h) * D2 + d;  // [BS, NB, H, 2D]
  ADD_FAILURE() << "no formula for " << layout;
  return 0;
}

void put_bf16(Bytes& b, std::int64_t i, float x) {
  store_scalar(DType::bf16, b.data(), i, x);
}

// What the caches must hold after tokens with `slots` are written: kSentinel everywhere else.
void expect_caches(const HostCase& c, const std::string& layout,
                   const std::vector<std::int64_t>& slots) {
  Bytes k_want(c.k_cache.size(), kSentinel), v_want(c.v_cache.size(), kSentinel);
  const bool packed = c.packed;
  for (int t = 0; t < static_cast<int>(slots.size()); ++t) {
    if (slots[t] < 0) continue;
    const int b = static_cast<int>(slots[t] / kBlockSize),
              o = static_cast<int>(slots[t] % kBlockSize);
    for (int h = 0; h < kHeads; ++h)
      for (int d = 0; d < kDim; ++d) {
        const std::int64_t i = expected_index(layout, b, o, h, d);
        put_bf16(k_want, i, quarter_turn(k_in, t, h, d, c.args.rot_dim));
        put_bf16(packed ? k_want : v_want, packed ? i + kDim : i, v_in(t, h, d));
      }
  }
  EXPECT_TRUE(c.k_cache == k_want) << layout << ": key (or packed) cache differs";
  EXPECT_TRUE(c.v_cache == v_want) << layout << ": value cache differs";
}

// q and k of every token rotated (k written back), v untouched.
void expect_rotated(const HostCase& c, int tokens) {
  for (int t = 0; t < tokens; ++t)
    for (int h = 0; h < kHeads; ++h)
      for (int d = 0; d < kDim; ++d) {
        const int r = c.args.rot_dim;
        ASSERT_EQ(c.get(c.qkv, c.q_at(t, h, d)), quarter_turn(q_in, t, h, d, r)) << t << h << d;
        ASSERT_EQ(c.get(c.qkv, c.k_at(t, h, d)), quarter_turn(k_in, t, h, d, r)) << t << h << d;
        ASSERT_EQ(c.get(c.qkv, c.v_at(t, h, d)), v_in(t, h, d)) << t << h << d;
      }
}

class GoldenLayout : public ::testing::TestWithParam<std::string> {};

// Slots land where each layout's shape says; slot -1 and untargeted entries keep their bytes.
TEST_P(GoldenLayout, EntriesLandAtTheirIndex) {
  HostCase c = structure_case(GetParam(), 4, 4);
  c.slots = {5, -1, 11, 0};  // block 1 offset 1, skipped, the last entry, the first entry
  c.run();
  expect_rotated(c, 4);
  expect_caches(c, GetParam(), c.slots);
}

INSTANTIATE_TEST_SUITE_P(Layouts, GoldenLayout,
                         ::testing::Values("nhd", "hnd", "packed_nhd", "packed_hnd", "hbs",
                                           "packed_sbh"));

// T > Tc (CUDA-graph padding): tokens 2 and 3 are rotated but not cached. The slot array is
// longer than Tc here, with valid slots past it, so reading past Tc would show.
TEST(GoldenStructure, PaddingTokensRotatedNotCached) {
  HostCase c = structure_case("nhd", 4, 2, 4);
  c.slots = {-1, 6, 1, 9};
  c.run();
  expect_rotated(c, 4);
  expect_caches(c, "nhd", {-1, 6});
}

TEST(GoldenStructure, RopeOnlyWritesNoCache) {
  HostCase c = structure_case("hnd", 3, 3);
  c.slots = {0, 1, 2};
  c.use_slots = false;
  c.run();
  expect_rotated(c, 3);
  expect_caches(c, "hnd", {-1, -1, -1});
}

TEST(GoldenStructure, NoKeyWriteBackStillCachesRotatedKey) {
  HostCase c = structure_case("packed_nhd", 2, 2);
  c.slots = {3, 8};
  c.args.write_back_key = false;
  const Bytes before = c.qkv;
  c.run();
  for (int t = 0; t < 2; ++t)
    for (int h = 0; h < kHeads; ++h)
      for (int d = 0; d < kDim; ++d) {
        const std::int64_t i = c.k_at(t, h, d) * 2;
        EXPECT_EQ(std::memcmp(&c.qkv[i], &before[i], 2), 0) << "key changed " << t << h << d;
        EXPECT_EQ(c.get(c.qkv, c.q_at(t, h, d)), quarter_turn(q_in, t, h, d, kDim));
      }
  expect_caches(c, "packed_nhd", c.slots);
}

// ---- MLA: q [T, Hq, 192] rotates dims 128..191; k_pe [T, 64]; kv_c [Tc, 512]; one cache tensor
// [num_blocks, block_size, 576] holding kv_c at 0 and k_pe' at 512. gpt-j, cos 0.5, sin 0.25:
// (x, y) -> (x/2 - y/4, y/2 + x/4), exact for the small integers used.
TEST(GoldenMla, RotatesRopeDimsAndPacksTheLatentEntry) {
  constexpr int T = 3, Hq = 2, NB = 2, BS = 4, kEntry = 576;
  HostCase c(DType::bf16, T, Hq, 1, 0, 64);
  c.args.q_head_size = 192;
  c.args.k_head_size = 64;
  c.args.v_head_size = 512;
  c.args.q_rot_offset = 128;
  c.args.style = RopeStyle::gptj;
  c.set_table_fill(3.0f);
  for (int p = 0; p < 8; ++p)
    c.set_table_row(p, std::vector<float>(32, 0.5f), std::vector<float>(32, 0.25f));
  c.alloc_qkv();
  auto q_val = [](int t, int h, int d) {
    return static_cast<float>((t * 7 + h * 3 + d) % 64 - 32);
  };
  auto k_val = [](int t, int d) { return static_cast<float>((t * 5 + d) % 48 - 24); };
  auto v_val = [](int t, int d) { return static_cast<float>((t * 11 + d) % 200 - 100); };
  for (int t = 0; t < T; ++t) {
    for (int h = 0; h < Hq; ++h)
      for (int d = 0; d < 192; ++d)
        c.put(c.qkv, c.q_at(t, h, d), q_val(t, h, d));
    for (int d = 0; d < 64; ++d)
      c.put(c.qkv, c.k_at(t, 0, d), k_val(t, d));
    for (int d = 0; d < 512; ++d)
      c.put(c.qkv, c.v_at(t, 0, d), v_val(t, d));
  }
  c.args.num_blocks = NB;
  c.args.block_size = BS;
  c.k_cache.assign(NB * BS * kEntry * 2, kSentinel);
  c.packed = true;  // V's view is into the same allocation
  c.args.key_cache = {nullptr, BS * kEntry, kEntry, 0};
  c.args.value_cache = {nullptr, BS * kEntry, kEntry, 0};
  c.k_cache_offset = 512;
  c.v_cache_offset = 0;
  c.slots = {6, -1, 1};
  c.run();

  auto turned = [](float x, float y, bool first) { return first ? x / 2 - y / 4 : y / 2 + x / 4; };
  Bytes want(c.k_cache.size(), kSentinel);
  for (int t = 0; t < T; ++t) {
    for (int h = 0; h < Hq; ++h)
      for (int d = 0; d < 192; ++d) {
        const int e = d - 128;  // index within the rope part
        const float x = q_val(t, h, 128 + (e & ~1)), y = q_val(t, h, 128 + (e | 1));
        const float q_want = d < 128 ? q_val(t, h, d) : turned(x, y, e % 2 == 0);
        ASSERT_EQ(c.get(c.qkv, c.q_at(t, h, d)), q_want) << t << " " << h << " " << d;
      }
    for (int d = 0; d < 64; ++d) {
      const float k_want = turned(k_val(t, d & ~1), k_val(t, d | 1), d % 2 == 0);
      ASSERT_EQ(c.get(c.qkv, c.k_at(t, 0, d)), k_want) << t << " " << d;
      if (c.slots[t] >= 0) put_bf16(want, c.slots[t] * kEntry + 512 + d, k_want);
    }
    for (int d = 0; d < 512 && c.slots[t] >= 0; ++d)
      put_bf16(want, c.slots[t] * kEntry + d, v_val(t, d));
  }
  EXPECT_TRUE(c.k_cache == want);
}

// ---- token subsets and threads produce exactly the full, single-thread bytes.
HostCase random_case(std::uint64_t seed) {
  constexpr int T = 37;
  HostCase c(DType::fp16, T, 4, 2, 64, 48);
  c.args.cache_dtype = CacheDType::fp8_e4m3;
  c.args.max_position = 64;
  c.positions.resize(T);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (auto& p : c.positions)
    p = static_cast<std::int64_t>(rng() % 64);
  c.set_table_fill(0.0f);
  for (int p = 0; p < 64; ++p) {
    std::vector<float> cs(24), sn(24);
    for (int i = 0; i < 24; ++i) {
      cs[i] = std::cos(p * std::pow(10000.0f, -2.0f * i / 48));
      sn[i] = std::sin(p * std::pow(10000.0f, -2.0f * i / 48));
    }
    c.set_table_row(p, cs, sn);
  }
  c.alloc_qkv();
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(c.qkv.size() / 2); ++i)
    c.put(c.qkv, i, u(rng));
  c.use_layout(*CacheLayout::parse("hnd"), 16, 4);
  c.slots.resize(T);
  for (int t = 0; t < T; ++t)
    c.slots[t] = t % 5 == 2 ? -1 : 63 - t;
  c.k_scale = {0.7f, 1.3f};
  c.v_scale = {0.05f, 0.02f};
  c.args.scale_head_stride = 1;
  return c;
}

TEST(GoldenSplit, MultiThreadEqualsSingleThread) {
  HostCase one = random_case(7), many = random_case(7);
  one.run(nullptr, 1);
  many.run(nullptr, 3);
  EXPECT_TRUE(one.qkv == many.qkv);
  EXPECT_TRUE(one.k_cache == many.k_cache);
  EXPECT_TRUE(one.v_cache == many.v_cache);
  EXPECT_NE(one.qkv, random_case(7).qkv);  // something was rotated at all
}

TEST(GoldenSplit, TokenSubsetEqualsFullRunOnThoseTokens) {
  const HostCase input = random_case(11);
  HostCase full = input, part = input;
  full.run();
  const std::vector<std::int64_t> tokens = {0, 2, 5, 36};
  part.run(&tokens, 2);
  const std::size_t row_bytes = full.row() * 2;
  for (int t = 0; t < 37; ++t) {
    const bool picked = std::find(tokens.begin(), tokens.end(), t) != tokens.end();
    const Bytes& want = picked ? full.qkv : input.qkv;
    EXPECT_EQ(std::memcmp(&part.qkv[t * row_bytes], &want[t * row_bytes], row_bytes), 0) << t;
  }
  // Cache entries (hnd: [16 blocks, 2 heads, 4 slots, 64]) of the picked tokens only.
  for (int t = 0; t < 37; ++t) {
    const bool picked = std::find(tokens.begin(), tokens.end(), t) != tokens.end();
    if (input.slots[t] < 0) continue;
    const std::int64_t b = input.slots[t] / 4, o = input.slots[t] % 4;
    for (int h = 0; h < 2; ++h) {
      const std::size_t at = ((b * 2 + h) * 4 + o) * 64;
      const Bytes& kw = picked ? full.k_cache : input.k_cache;
      const Bytes& vw = picked ? full.v_cache : input.v_cache;
      EXPECT_EQ(std::memcmp(&part.k_cache[at], &kw[at], 64), 0) << t;
      EXPECT_EQ(std::memcmp(&part.v_cache[at], &vw[at], 64), 0) << t;
    }
  }
}

// ---- CacheLayout (src/cache_layout.cpp)

TEST(CacheLayout, NamesRoundTrip) {
  for (const std::string& name : CacheLayout::preset_names()) {
    const auto layout = CacheLayout::parse(name);
    ASSERT_TRUE(layout.has_value()) << name;
    EXPECT_EQ(layout->name(), name);
  }
  // Letter orders name the presets' orders too; the preset name wins when printing.
  const std::pair<const char*, const char*> names[] = {{"bsh", "nhd"},
                                                       {"bhs", "hnd"},
                                                       {"packed_bsh", "packed_nhd"},
                                                       {"packed_bhs", "packed_hnd"},
                                                       {"hbs", "hbs"},
                                                       {"packed_sbh", "packed_sbh"},
                                                       {"shb", "shb"},
                                                       {"packed_hsb", "packed_hsb"}};
  for (const auto& [in, out] : names) {
    const auto layout = CacheLayout::parse(in);
    ASSERT_TRUE(layout.has_value()) << in;
    EXPECT_EQ(layout->name(), out);
    EXPECT_EQ(CacheLayout::parse(layout->name()), layout) << in;
  }
  const CacheLayout hbs = *CacheLayout::parse("hbs");
  EXPECT_EQ(hbs.order[0], PagedDim::head);
  EXPECT_EQ(hbs.order[1], PagedDim::block);
  EXPECT_EQ(hbs.order[2], PagedDim::slot);
  EXPECT_FALSE(hbs.packed);
  EXPECT_NE(*CacheLayout::parse("nhd"), *CacheLayout::parse("packed_nhd"));
}

TEST(CacheLayout, RejectsBadNames) {
  for (const char* name :
       {"bbs", "xyz", "", "packed_", "packed_bbs", "nhdx", "bh", "bshh", "NHD", "packed-nhd"})
    EXPECT_FALSE(CacheLayout::parse(name).has_value()) << '"' << name << '"';
}

TEST(CacheLayout, PresetStrides) {
  // 3 blocks of 4 slots, 2 heads, head size 8.
  struct Want {
    const char* name;
    std::int64_t block, slot, head, value_offset, elements;
    int tensors;
  };
  const Want wants[] = {
      {"nhd", 64, 16, 8, 0, 192, 2},           // [3, 4, 2, 8]
      {"hnd", 64, 8, 32, 0, 192, 2},           // [3, 2, 4, 8]
      {"packed_nhd", 128, 32, 16, 8, 384, 1},  // [3, 4, 2, 16]
      {"packed_hnd", 128, 16, 64, 8, 384, 1},  // [3, 2, 4, 16]
      {"hbs", 32, 8, 96, 0, 192, 2},           // [2, 3, 4, 8]
  };
  for (const Want& w : wants) {
    const CacheGeometry g = make_cache_geometry(*CacheLayout::parse(w.name), 3, 4, 2, 8, 8);
    EXPECT_EQ(g.block_stride, w.block) << w.name;
    EXPECT_EQ(g.slot_stride, w.slot) << w.name;
    EXPECT_EQ(g.head_stride, w.head) << w.name;
    EXPECT_EQ(g.value_offset, w.value_offset) << w.name;
    EXPECT_EQ(g.elements_per_tensor, w.elements) << w.name;
    EXPECT_EQ(g.num_tensors, w.tensors) << w.name;
  }
  // A packed V view starts value_offset elements (of the cache dtype) after K.
  const CacheGeometry g = make_cache_geometry(*CacheLayout::parse("packed_nhd"), 3, 4, 2, 8, 8);
  unsigned char base[32] = {};
  EXPECT_EQ(static_cast<unsigned char*>(g.value_view(base, 2).data), base + 16);
  EXPECT_EQ(static_cast<unsigned char*>(g.value_view(base, 1).data), base + 8);
  EXPECT_EQ(g.key_view(base).data, base);
}

}  // namespace
}  // namespace rkv
