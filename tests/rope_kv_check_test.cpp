// check_rope_kv_inputs() against the contract's "Bad input" list (docs/design.md): each rejection
// is one line that names the argument and the bad value, and a case built the way the tool builds
// it is accepted. Also the work split the fused kernel launches with (work_plan.h): the access
// width it picks and the unit counts per token for MHA/GQA/MQA and the optional outputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "launch_spoilers.h"
#include "plan/sweep_config.h"
#include "plan/sweep_plan.h"
#include "plan/workload.h"
#include "rope_kv.h"
#include "rope_kv_check.h"
#include "work_plan.h"

namespace rkv {
namespace {

// Host memory standing in for a device allocation. cudaMalloc returns 256-byte aligned memory;
// 64 is enough for every access width, so the width checks see what a device case would.
class AlignedBytes {
 public:
  explicit AlignedBytes(std::int64_t bytes) {
    if (bytes <= 0) return;
    raw_.resize(static_cast<std::size_t>(bytes) + kAlign);
    void* p = raw_.data();
    std::size_t space = raw_.size();
    data_ = std::align(kAlign, static_cast<std::size_t>(bytes), p, space);
  }
  void* data() const { return data_; }

 private:
  static constexpr std::size_t kAlign = 64;
  std::vector<unsigned char> raw_;
  void* data_ = nullptr;
};

// One case on host buffers, bound exactly as the validator binds its golden copy: plan, seeded
// small inputs, bind_args. Tests then break one argument and expect one line about it. `args`
// points into this object, so it is neither copied nor moved.
struct HostCase {
  TensorPlan plan;
  HostInputs in;
  AlignedBytes qkv, query_out, k_cache, v_cache;
  RopeKvArgs args;

  explicit HostCase(const CaseSpec& s)
      : plan(make_tensor_plan(s)),
        in(make_host_inputs(plan)),
        qkv(plan.qkv_bytes()),
        query_out(plan.query_out_bytes()),
        k_cache(plan.has_slots() ? plan.cache_bytes() : 0),
        v_cache(plan.has_slots() && plan.cache_tensors == 2 ? plan.cache_bytes() : 0) {
    BufferPointers b = input_pointers(in);
    b.qkv = qkv.data();
    b.query_out = query_out.data();
    b.k_cache = k_cache.data();
    b.v_cache = plan.cache_tensors == 2 ? v_cache.data() : k_cache.data();
    args = bind_args(plan, b);
  }
  HostCase(const HostCase&) = delete;
  HostCase& operator=(const HostCase&) = delete;

  std::string check() const { return check_rope_kv_inputs(args, host_side(in)); }
  std::int64_t slot_count() const { return plan.num_blocks * plan.block_size; }
};

// bf16, 4 query heads over 2 KV heads of 64, 8 tokens, nhd cache of 16-slot blocks.
CaseSpec small_spec(CacheDType cache = CacheDType::auto_) {
  CaseSpec s;
  s.heads = HeadConfig{4, 2, 64, false};
  s.tokens = 8;
  s.cache_dtype = cache;
  return s;
}

// Indices of two tokens that both have a slot (mixed mode skips a few).
std::pair<std::size_t, std::size_t> two_cached_tokens(const HostCase& c) {
  std::vector<std::size_t> cached;
  for (std::size_t t = 0; t < c.in.slots.size(); ++t)
    if (c.in.slots[t] >= 0) cached.push_back(t);
  if (cached.size() < 2) throw std::runtime_error("case has fewer than two cached tokens");
  return {cached[0], cached[1]};
}

// ---- accepted

TEST(RopeKvCheck, AcceptsTheCaseTheToolBuilds) {
  HostCase c(small_spec());
  EXPECT_EQ(c.check(), "");
}

TEST(RopeKvCheck, AcceptsEveryLayoutAndOption) {
  std::vector<CaseSpec> specs;
  for (const char* name : {"nhd", "hnd", "packed_nhd", "packed_hnd", "hbs", "packed_sbh"}) {
    CaseSpec s = small_spec(CacheDType::fp8_e4m3);
    s.layout = *CacheLayout::parse(name);
    s.scale = ScaleKind::per_head;
    specs.push_back(s);
  }
  CaseSpec padded = small_spec();
  padded.slots = SlotMode::padded;
  CaseSpec rope_only = small_spec();
  rope_only.slots = SlotMode::rope_only;
  CaseSpec separate = small_spec();
  separate.query_out = QueryOut::separate;
  separate.rot_dim = 32;
  CaseSpec mla = small_spec(CacheDType::fp8_e5m2);
  mla.heads = HeadConfig{16, 1, 0, true};
  mla.style = RopeStyle::gptj;
  CaseSpec fp32 = small_spec();
  fp32.dtype = DType::fp32;
  fp32.cos_sin_fp32 = true;
  specs.insert(specs.end(), {padded, rope_only, separate, mla, fp32});
  for (const CaseSpec& s : specs) {
    HostCase c(s);
    EXPECT_EQ(c.check(), "") << s.id();
  }
}

// No false alarms: every case of the validation matrix, bound the way the tool binds it (to
// distinct, far-apart allocations; the check reads pointers and the small inputs only), passes.
TEST(RopeKvCheck, AcceptsEveryCaseOfTheFullMatrix) {
  SweepConfig config;
  const auto error =
      load_sweep_config(std::string(RKV_SOURCE_DIR) + "/configs/full-matrix.json", &config);
  ASSERT_FALSE(error.has_value()) << *error;
  const SweepPlan plan = plan_sweep(config.axes, config.extra_cases);
  ASSERT_GT(plan.cases.size(), 3000u);
  for (const CaseSpec& spec : plan.cases) {
    const TensorPlan p = make_tensor_plan(spec);
    const HostInputs in = make_host_inputs(p);
    BufferPointers b = input_pointers(in);
    b.qkv = reinterpret_cast<void*>(std::uintptr_t{1} << 40);
    b.query_out = reinterpret_cast<void*>(std::uintptr_t{2} << 40);
    b.k_cache = reinterpret_cast<void*>(std::uintptr_t{3} << 40);
    b.v_cache = p.cache_tensors == 2 ? reinterpret_cast<void*>(std::uintptr_t{4} << 40) : b.k_cache;
    RopeKvArgs a = bind_args(p, b);
    if (!p.separate_query_out()) a.query_out = HeadTensor{};
    EXPECT_EQ(check_rope_kv_inputs(a, host_side(in)), "") << spec.id();
  }
}

// ---- sizes and rotary dims

TEST(RopeKvCheck, RejectsMoreCacheTokensThanTokens) {
  HostCase c(small_spec());
  c.args.num_cache_tokens = 9;
  EXPECT_EQ(c.check(), "num_cache_tokens = 9 must lie in [0, num_tokens = 8]");
}

TEST(RopeKvCheck, RejectsQueryHeadsNotAMultipleOfKvHeads) {
  HostCase c(small_spec());
  c.args.num_q_heads = 3;
  EXPECT_EQ(c.check(), "num_q_heads = 3 is not a multiple of num_kv_heads = 2");
}

TEST(RopeKvCheck, RejectsOddRotDim) {
  HostCase c(small_spec());
  c.args.rot_dim = 63;
  EXPECT_EQ(c.check(), "rot_dim = 63 must be even and positive");
}

TEST(RopeKvCheck, RejectsRotDimLargerThanTheHead) {
  HostCase c(small_spec());
  c.args.rot_dim = 66;
  c.args.cos_sin_stride = 66;
  EXPECT_EQ(c.check(), "rot_dim = 66 (q offset 0) does not fit head sizes q 64, k 64");
}

// ---- positions

TEST(RopeKvCheck, RejectsPositionPastTheTable) {
  HostCase c(small_spec());
  c.in.positions[3] = 8192;
  EXPECT_EQ(c.check(), "positions[3] = 8192 is outside the cos/sin cache [0, 8192)");
}

TEST(RopeKvCheck, RejectsNegativePosition) {
  HostCase c(small_spec());
  c.in.positions[0] = -1;
  EXPECT_EQ(c.check(), "positions[0] = -1 is outside the cos/sin cache [0, 8192)");
}

// ---- slots

TEST(RopeKvCheck, RejectsSlotBelowMinusOne) {
  HostCase c(small_spec());
  c.in.slots[2] = -2;
  EXPECT_EQ(c.check(),
            "slot_mapping[2] = -2 is outside [-1, " + std::to_string(c.slot_count()) + ")");
}

TEST(RopeKvCheck, RejectsSlotPastTheCache) {
  HostCase c(small_spec());
  const std::int64_t past = c.slot_count();
  c.in.slots[1] = past;
  EXPECT_EQ(c.check(), "slot_mapping[1] = " + std::to_string(past) + " is outside [-1, " +
                           std::to_string(past) + ")");
  c.in.slots[1] = past - 1;  // the last slot itself is fine (unless another token holds it)
  bool taken = false;
  for (std::size_t t = 0; t < c.in.slots.size(); ++t)
    taken |= t != 1 && c.in.slots[t] == past - 1;
  if (!taken) {
    EXPECT_EQ(c.check(), "");
  }
}

// The fused kernel splits slots into (block, offset) in 32 bits.
TEST(RopeKvCheck, RejectsACacheOfTwoToThe31Slots) {
  HostCase c(small_spec());
  c.args.num_blocks = (std::int64_t{1} << 31) / c.args.block_size;
  EXPECT_EQ(c.check(), "cache of " + std::to_string(c.args.num_blocks) +
                           " blocks of 16 slots has " +
                           "2147483648 slots; at most 2^31 - 1 are supported");
}

TEST(RopeKvCheck, RejectsTheSameSlotTwice) {
  HostCase c(small_spec());
  const auto [first, second] = two_cached_tokens(c);
  const std::int64_t slot = c.in.slots[first];
  c.in.slots[second] = slot;
  EXPECT_EQ(c.check(), "slot_mapping[" + std::to_string(second) + "] = " + std::to_string(slot) +
                           " repeats an earlier token's slot");
}

TEST(RopeKvCheck, AllowsManySkippedTokens) {
  HostCase c(small_spec());
  for (auto& s : c.in.slots)
    s = -1;  // -1 repeats freely: it writes nothing
  EXPECT_EQ(c.check(), "");
}

// ---- fp8 scales

TEST(RopeKvCheck, RejectsBadPerTensorScales) {
  struct Bad {
    bool key;
    float value;
    const char* text;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Bad& b : {Bad{true, 0.0f, "k_scale[0] = 0"}, Bad{true, -1.0f, "k_scale[0] = -1"},
                       Bad{false, inf, "v_scale[0] = inf"}, Bad{false, -inf, "v_scale[0] = -inf"},
                       Bad{true, nan, "k_scale[0] = nan"}}) {
    HostCase c(small_spec(CacheDType::fp8_e4m3));
    (b.key ? c.in.k_scale : c.in.v_scale)[0] = b.value;
    EXPECT_EQ(c.check(), std::string(b.text) + " must be finite and > 0");
  }
}

TEST(RopeKvCheck, RejectsBadPerHeadScale) {
  CaseSpec s = small_spec(CacheDType::fp8_e5m2);
  s.scale = ScaleKind::per_head;
  HostCase c(s);
  ASSERT_EQ(c.in.v_scale.size(), 2u);
  c.in.v_scale[1] = -0.5f;  // only the last head's scale is bad
  EXPECT_EQ(c.check(), "v_scale[1] = -0.5 must be finite and > 0");
  c.in.v_scale[1] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(c.check(), "v_scale[1] = nan must be finite and > 0");
}

TEST(RopeKvCheck, IgnoresScalesOfAnAutoCache) {
  HostCase c(small_spec());
  ASSERT_TRUE(c.in.k_scale.empty());
  c.args.k_scale = nullptr;  // bits are copied, so no scale is needed
  EXPECT_EQ(c.check(), "");
}

TEST(RopeKvCheck, RejectsMissingFp8Scale) {
  HostCase c(small_spec(CacheDType::fp8_e4m3));
  c.in.k_scale.clear();
  EXPECT_EQ(c.check(), "k_scale is missing (an fp8 cache needs it)");
}

// ---- overlapping views

TEST(RopeKvCheck, RejectsOverlappingHeadStrides) {
  {
    HostCase c(small_spec());
    c.args.query.head_stride = 32;
    EXPECT_EQ(c.check(), "query.head_stride = 32 overlaps rows of 64 elements");
  }
  {
    HostCase c(small_spec());
    c.args.key.head_stride = 0;
    EXPECT_EQ(c.check(), "key.head_stride = 0 overlaps rows of 64 elements");
  }
  {
    HostCase c(small_spec());
    c.args.value.head_stride = 63;
    EXPECT_EQ(c.check(), "value.head_stride = 63 overlaps rows of 64 elements");
  }
}

TEST(RopeKvCheck, RejectsOverlappingTokenStrides) {
  HostCase c(small_spec());
  c.args.query.token_stride = 3 * 64 + 63;  // one element short of the 4 heads
  EXPECT_EQ(c.check(), "query.token_stride = 255 overlaps the 4 heads of a token");
  CaseSpec s = small_spec();
  s.query_out = QueryOut::separate;
  HostCase separate(s);
  separate.args.query_out.token_stride = 64;
  EXPECT_EQ(separate.check(), "query_out.token_stride = 64 overlaps the 4 heads of a token");
}

TEST(RopeKvCheck, RejectsOverlappingCacheStrides) {
  // nhd, 2 heads of 64, 16-slot blocks: strides head 64, slot 128, block 2048.
  {
    HostCase c(small_spec());
    ASSERT_EQ(c.args.key_cache.block_stride, 2048);
    c.args.key_cache.head_stride = 32;
    EXPECT_EQ(c.check(),
              "key_cache strides (block 2048, slot 128, head 32) make distinct entries "
              "overlap");
  }
  {
    HostCase c(small_spec());
    c.args.value_cache.slot_stride = 64;  // slot o + 1 of head 0 is slot o of head 1
    EXPECT_EQ(c.check(),
              "value_cache strides (block 2048, slot 64, head 64) make distinct entries "
              "overlap");
  }
  {
    HostCase c(small_spec());
    c.args.key_cache.block_stride = 1024;  // block b + 1 starts inside block b
    EXPECT_EQ(c.check(),
              "key_cache strides (block 1024, slot 128, head 64) make distinct entries "
              "overlap");
  }
}

TEST(RopeKvCheck, RejectsViewsThatShareMemory) {
  // small_spec: qkv rows of 4*64 query, 2*64 key and 2*64 value elements.
  {
    HostCase c(small_spec());
    c.args.query_out = c.args.query;  // "separate" output that is the input
    EXPECT_EQ(c.check(), "query and query_out views share memory");
  }
  {
    HostCase c(small_spec());
    c.args.key.data = static_cast<char*>(c.args.key.data) - 32 * 2;  // last 32 dims of q head 3
    EXPECT_EQ(c.check(), "query and key views share memory");
  }
  {
    HostCase c(small_spec());
    c.args.value.data =
        static_cast<char*>(c.args.value.data) - 64 * 2;  // value head 0 = key head 1
    EXPECT_EQ(c.check(), "key and value views share memory");
  }
  {
    CaseSpec s = small_spec();
    s.layout = *CacheLayout::parse("packed_nhd");
    HostCase c(s);
    // V half starting half-way into the K half of the same entry.
    c.args.value_cache.data = static_cast<char*>(c.args.key_cache.data) + 32 * 2;
    EXPECT_EQ(c.check(), "key_cache and value_cache views share memory");
  }
}

// Any two tensors the operation is given must not share memory, inputs included (issue 14: a cache
// aliasing q/k/v was accepted).
TEST(RopeKvCheck, RejectsACacheThatAliasesQkv) {
  {
    HostCase c(small_spec());
    c.args.key_cache.data = c.args.query.data;
    EXPECT_EQ(c.check(), "query and key_cache views share memory");
  }
  {
    HostCase c(small_spec());
    // The last token's value row (earlier rows would also lie inside the q and k spans). The
    // cache view runs on past the qkv buffer, into whatever the allocator put after it: the
    // positions, on one run of the GPU box (the first overlapping pair is named), so only the
    // cache's side of the pair is fixed.
    c.args.value_cache.data =
        static_cast<char*>(c.args.value.data) + 7 * c.args.value.token_stride * 2;
    const std::string refused = c.check();
    EXPECT_NE(refused.find(" and value_cache views share memory"), std::string::npos) << refused;
  }
  {
    HostCase c(small_spec());
    c.args.key_cache.data = static_cast<char*>(c.args.key.data) + 7 * c.args.key.token_stride * 2;
    EXPECT_EQ(c.check(), "key and key_cache views share memory");
  }
}

TEST(RopeKvCheck, RejectsSmallInputsSharingMemoryWithAnything) {
  {
    HostCase c(small_spec());
    // Inside the last token's key row (earlier rows would also lie inside the q span).
    c.args.positions = reinterpret_cast<const std::int64_t*>(static_cast<char*>(c.args.key.data) +
                                                             7 * c.args.key.token_stride * 2);
    EXPECT_EQ(c.check(), "key and positions views share memory");
  }
  {
    HostCase c(small_spec());
    c.args.slot_mapping = c.args.positions + 4;  // the tail of the positions array
    EXPECT_EQ(c.check(), "positions and slot_mapping views share memory");
  }
  {
    HostCase c(small_spec());
    c.args.cos_sin_cache = c.args.value_cache.data;
    // The table now spans the value cache (and, in the host case's layout, what follows it): the
    // first overlapping pair found is named, and it involves the table (on either side: the
    // views are tried in argument order, so a tensor before the table may be named first).
    const std::string why = c.check();
    EXPECT_TRUE(why.rfind("cos_sin_cache and ", 0) == 0 ||
                why.find(" and cos_sin_cache views") != std::string::npos)
        << why;
    EXPECT_NE(why.find("views share memory"), std::string::npos) << why;
  }
  {
    HostCase c(small_spec(CacheDType::fp8_e4m3));
    c.args.k_scale = static_cast<const float*>(
        c.args.query_out.data == nullptr ? c.args.key_cache.data : c.args.query_out.data);
    EXPECT_EQ(c.check(), "key_cache and k_scale views share memory");
  }
  {
    HostCase c(small_spec(CacheDType::fp8_e5m2));
    c.args.v_scale = reinterpret_cast<const float*>(c.args.slot_mapping);
    EXPECT_EQ(c.check(), "slot_mapping and v_scale views share memory");
  }
}

TEST(RopeKvCheck, ScalesMayBeOneTensorButNotOverlapPartly) {
  CaseSpec s = small_spec(CacheDType::fp8_e4m3);
  s.scale = ScaleKind::per_head;
  {
    HostCase c(s);
    c.args.v_scale = c.args.k_scale;  // K and V share their scales: read-only, allowed
    EXPECT_EQ(c.check(), "");
  }
  {
    HostCase c(s);
    c.args.v_scale = c.args.k_scale + 1;  // head 0 of V is head 1 of K
    EXPECT_EQ(c.check(), "k_scale and v_scale views share memory");
  }
}

// The kernels read k_scale[h * scale_head_stride] for h < Hkv: a stride of 2 reads past [Hkv].
TEST(RopeKvCheck, RejectsScaleHeadStridesOtherThanZeroAndOne) {
  for (int stride : {2, -1, 8}) {
    CaseSpec s = small_spec(CacheDType::fp8_e4m3);
    s.scale = ScaleKind::per_head;
    HostCase c(s);
    c.args.scale_head_stride = stride;
    EXPECT_EQ(c.check(), "scale_head_stride = " + std::to_string(stride) +
                             " must be 0 (one scale) or 1 (one per KV head)");
  }
  HostCase automatic(small_spec());
  automatic.args.scale_head_stride =
      2;  // refused with an auto cache too: the field has no other use
  EXPECT_EQ(automatic.check(),
            "scale_head_stride = 2 must be 0 (one scale) or 1 (one per KV head)");
}

// Whatever a launcher refuses, the host check refuses too, so a checked case always launches.
TEST(RopeKvCheck, RefusesEverythingTheLaunchersRefuse) {
  for (const LaunchSpoiler& spoiler : launch_spoilers()) {
    HostCase c(launch_spoiler_base());
    ASSERT_EQ(c.check(), "");
    spoiler.spoil(c.args);
    EXPECT_NE(c.check(), "") << spoiler.name;
  }
  HostCase c(launch_spoiler_base());
  c.args.dtype = static_cast<DType>(7);
  EXPECT_EQ(c.check(), "launch arguments refused: dtype is not a DType");
}

TEST(RopeKvCheck, RejectsShapesNoAccessWidthDivides) {
  CaseSpec s = small_spec();
  s.heads.head_size = 66;  // neox halves of 33 elements: no 2-element access fits
  HostCase c(s);
  EXPECT_EQ(rope_kv_vector_elems(c.args), 0);
  const std::string e = c.check();
  EXPECT_EQ(e.rfind("no supported access width: head sizes 66/66/66, rot_dim 66", 0), 0u) << e;
}

// ---- access width (work_plan.h)

TEST(RopeKvVectorElems, SixteenByteAccessesForTheCommonShape) {
  CaseSpec s;  // bf16 32x8x128 neox
  s.tokens = 4;
  HostCase c(s);
  EXPECT_EQ(rope_kv_vector_elems(c.args), 8);
  s.style = RopeStyle::gptj;
  HostCase gptj(s);
  EXPECT_EQ(rope_kv_vector_elems(gptj.args), 8);
}

TEST(RopeKvVectorElems, PartialRotaryHalfLimitsTheWidth) {
  CaseSpec s = small_spec();
  s.heads.head_size = 80;
  s.rot_dim = 40;  // neox halves of 20 elements: 8 does not divide them, 4 does
  HostCase c(s);
  EXPECT_EQ(rope_kv_vector_elems(c.args), 4);
  s.rot_dim = 0;  // full rotary: halves of 40
  HostCase full(s);
  EXPECT_EQ(rope_kv_vector_elems(full.args), 8);
}

TEST(RopeKvVectorElems, Fp32MovesFourPerAccess) {
  CaseSpec s = small_spec();
  s.dtype = DType::fp32;
  HostCase c(s);
  EXPECT_EQ(rope_kv_vector_elems(c.args), 4);
}

TEST(RopeKvVectorElems, MisalignmentNarrowsTheWidth) {
  HostCase c(small_spec());
  ASSERT_EQ(rope_kv_vector_elems(c.args), 8);
  void* const query = c.args.query.data;
  c.args.query.data = static_cast<char*>(query) + 8;  // 8-byte aligned: 4 bf16
  EXPECT_EQ(rope_kv_vector_elems(c.args), 4);
  c.args.query.data = static_cast<char*>(query) + 4;  // 4-byte aligned: 2 bf16
  EXPECT_EQ(rope_kv_vector_elems(c.args), 2);
  c.args.query.data = static_cast<char*>(query) + 2;  // one element off: no pair-aligned access
  EXPECT_EQ(rope_kv_vector_elems(c.args), 0);
  c.args.query.data = query;
  c.args.key.token_stride += 4;  // a stride that is a multiple of 4 elements only
  EXPECT_EQ(rope_kv_vector_elems(c.args), 4);
}

TEST(RopeKvVectorElems, Fp8CacheAlignmentCountsInBytes) {
  HostCase c(small_spec(CacheDType::fp8_e4m3));
  ASSERT_EQ(rope_kv_vector_elems(c.args), 8);
  // 8 fp8 entries are an 8-byte store: a cache view 4 bytes off allows 4, not 8.
  c.args.value_cache.data = static_cast<char*>(c.args.value_cache.data) + 4;
  EXPECT_EQ(rope_kv_vector_elems(c.args), 4);
  // Without a slot mapping the cache is never written, so its alignment does not matter.
  c.args.slot_mapping = nullptr;
  EXPECT_EQ(rope_kv_vector_elems(c.args), 8);
}

TEST(RopeKvVectorElems, MisalignedCosSinTable) {
  HostCase c(small_spec());
  c.args.cos_sin_cache = static_cast<const char*>(c.args.cos_sin_cache) + 4;
  EXPECT_EQ(rope_kv_vector_elems(c.args), 2);
}

// ---- work units (work_plan.h)

// Plain arguments for the planner: it reads sizes, style and which optional outputs exist.
RopeKvArgs plan_args(int hq, int hkv, int d, int rot) {
  static const std::int64_t slots[1] = {0};
  RopeKvArgs a;
  a.num_tokens = a.num_cache_tokens = 1;
  a.num_q_heads = hq;
  a.num_kv_heads = hkv;
  a.q_head_size = a.k_head_size = a.v_head_size = d;
  a.rot_dim = rot;
  a.slot_mapping = slots;
  return a;
}

// MLA with hq query heads: q 192 wide with dims [128, 192) rotated by `rot`, k_pe 64, kv_c 512
// (one kv head).
RopeKvArgs mla_plan_args(int hq, int rot) {
  RopeKvArgs a = plan_args(hq, 1, 192, rot);
  a.k_head_size = 64;
  a.v_head_size = 512;
  a.q_rot_offset = 128;
  return a;
}

void expect_plan(const WorkPlan& p, int q_rot, int q_pass, int k_rot, int k_pass, int v_units,
                 std::int64_t q_end, std::int64_t k_end, std::int64_t units) {
  EXPECT_EQ(p.q_rot, q_rot);
  EXPECT_EQ(p.q_pass, q_pass);
  EXPECT_EQ(p.k_rot, k_rot);
  EXPECT_EQ(p.k_pass, k_pass);
  EXPECT_EQ(p.v_units, v_units);
  EXPECT_EQ(p.q_units, q_rot + q_pass);
  EXPECT_EQ(p.k_units, k_rot + k_pass);
  EXPECT_EQ(p.q_end, q_end);
  EXPECT_EQ(p.k_end, k_end);
  EXPECT_EQ(p.units_per_token, units);
}

TEST(FusedWorkPlan, MhaGqaMqa) {
  // D = 128, full neox rotary, 8 per access: 8 rotation units (each two chunks), 16 v chunks.
  {
    SCOPED_TRACE("MHA 8x8x128");
    expect_plan(make_fused_plan(plan_args(8, 8, 128, 128), 8), 8, 0, 8, 0, 16, 64, 128, 256);
  }
  {
    SCOPED_TRACE("GQA 32x8x128");
    expect_plan(make_fused_plan(plan_args(32, 8, 128, 128), 8), 8, 0, 8, 0, 16, 256, 320, 448);
  }
  {
    SCOPED_TRACE("MQA 8x1x128");
    expect_plan(make_fused_plan(plan_args(8, 1, 128, 128), 8), 8, 0, 8, 0, 16, 64, 72, 88);
  }
}

TEST(FusedWorkPlan, GptjHoldsPairsInOneChunk) {
  const WorkPlan p = make_fused_plan(
      [] {
        RopeKvArgs a = plan_args(4, 2, 64, 64);
        a.style = RopeStyle::gptj;
        return a;
      }(),
      8);
  expect_plan(p, 8, 0, 8, 0, 8, 32, 48, 64);
}

TEST(FusedWorkPlan, PartialRotaryPassThroughOnlyWhereCopied) {
  // R = 64 of D = 128: 4 rotation units, 8 pass-through chunks. In place, q's tail is untouched
  // (no units); k's tail still goes to the cache.
  expect_plan(make_fused_plan(plan_args(8, 2, 128, 64), 8), 4, 0, 4, 8, 16, 32, 56, 88);
  // A separate query_out needs q's tail copied too.
  RopeKvArgs a = plan_args(8, 2, 128, 64);
  int dummy = 0;
  a.query_out.data = &dummy;
  expect_plan(make_fused_plan(a, 8), 4, 8, 4, 8, 16, 96, 120, 152);
}

// Divides every index of a segment of `count` heads x `per_head` units back into (head, unit).
void expect_divider_splits(const FastDivmod& d, int count, int per_head) {
  ASSERT_EQ(d.divisor, static_cast<std::uint32_t>(per_head));
  for (int i = 0; i < count * per_head; ++i) {
    std::uint32_t h, w;
    d.divmod(static_cast<std::uint32_t>(i), h, w);
    EXPECT_EQ(h * per_head + w, static_cast<std::uint32_t>(i));
    EXPECT_LT(w, static_cast<std::uint32_t>(per_head));
  }
}

TEST(FusedWorkPlan, RoleMajorSplitPutsEachRoleInOneSegment) {
  // 8x2x128, R = 64, with query_out: [q rotation 8 x 4][q pass 8 x 8][k rotation 2 x 4]
  // [k pass 2 x 8][v 2 x 16] = 32 | 96 | 104 | 120 | 152.
  RopeKvArgs a = plan_args(8, 2, 128, 64);
  int dummy = 0;
  a.query_out.data = &dummy;
  const WorkPlan p = make_fused_plan(a, 8);
  const RoleMajorSplit split = make_role_major_split(a, p);
  EXPECT_EQ(split.q_rot_end, 32);
  EXPECT_EQ(p.q_end, 96);
  EXPECT_EQ(split.k_rot_end, 104);
  EXPECT_EQ(p.k_end, 120);
  EXPECT_EQ(p.units_per_token, 152);
  expect_divider_splits(split.per_q_rot, 8, 4);
  expect_divider_splits(split.per_q_pass, 8, 8);
  expect_divider_splits(split.per_k_rot, 2, 4);
  expect_divider_splits(split.per_k_pass, 2, 8);
  // Full rotary: no pass-through segments; their dividers stay unusable (divisor 0).
  const RopeKvArgs full = plan_args(8, 2, 128, 128);
  const WorkPlan pf = make_fused_plan(full, 8);
  const RoleMajorSplit sf = make_role_major_split(full, pf);
  EXPECT_EQ(sf.q_rot_end, pf.q_end);
  EXPECT_EQ(sf.k_rot_end, pf.k_end);
  EXPECT_EQ(sf.per_q_pass.divisor, 0u);
  EXPECT_EQ(sf.per_k_pass.divisor, 0u);
}

TEST(FusedWorkPlan, RoleMajorSegmentsStartOnWarpsWhereTokensWouldStraddleWarps) {
  // 16x2x256, R = 64: q rotation 64, q pass 0, k rotation 8, k pass 48, v 64 = 184 units; padded
  // to warps 64 + 0 + 32 + 64 + 64 = 224 (22 % more): taken.
  RopeKvArgs a = plan_args(16, 2, 256, 64);
  RoleMajorSplit s = make_role_major_split(a, make_fused_plan(a, 8));
  EXPECT_EQ(s.padded_units_per_token, 224);
  EXPECT_EQ(s.per_padded_token.divisor, 224u);
  EXPECT_EQ(launched_units_per_token(make_fused_plan(a, 8), s, true), 224);
  EXPECT_EQ(launched_units_per_token(make_fused_plan(a, 8), s, false), 184);  // row-major: compact
  const int starts[5] = {0, 64, 64, 96, 160}, lens[5] = {64, 0, 8, 48, 64};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s.seg_start[i], starts[i]) << i;
    EXPECT_EQ(s.seg_len[i], lens[i]) << i;
  }
  // 32x8x128, R = 64: 128 + 0 + 32 + 64 + 128 units, already on warps: nothing to pad.
  a = plan_args(32, 8, 128, 64);
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8)).padded_units_per_token, 0);
  // 28x4x128, R = 64: 112 + 0 + 16 + 32 + 64 = 224 units, seven whole warps a token: the one warp
  // that mixes holds rotations of q and of k, so padding to 256 would buy nothing.
  a = plan_args(28, 4, 128, 64);
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8)).padded_units_per_token, 0);
  // 8x1x64, R = 32: 16 + 0 + 2 + 4 + 8 = 30 units would take 128 threads: left compact.
  a = plan_args(8, 1, 64, 32);
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8)).padded_units_per_token, 0);
}

// Half-chunk neox rotation units (fp8 caches, role-major launches): twice the rotation units,
// the copy units unchanged, and the plan of every other kind of case left alone.
TEST(FusedWorkPlan, NeoxHalfUnitsDoubleOnlyTheRotationUnitsOfFp8NeoxPlans) {
  // 16x2x256, R = 64 at 8 a chunk: rotation 16 x 4 and 2 x 4 units of two 8-element chunks, or
  // 16 x 8 and 2 x 8 of two 4-element chunks (gpt-j's 128 + 16); k pass 48, v 64 as before.
  RopeKvArgs a = plan_args(16, 2, 256, 64);
  a.cache_dtype = CacheDType::fp8_e4m3;
  ASSERT_TRUE(neox_half_units(a.style, a.cache_dtype, 8));
  expect_plan(make_fused_plan(a, 8), 4, 0, 4, 24, 32, 64, 120, 184);
  const WorkPlan half = make_fused_plan(a, 8, 1, 4);
  expect_plan(half, 8, 0, 8, 24, 32, 128, 192, 256);
  // 256 units are whole warps, as in gpt-j's plan of the shape: compact (184 were padded to 224).
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8)).padded_units_per_token, 224);
  EXPECT_EQ(make_role_major_split(a, half).padded_units_per_token, 0);
  // MLA 16 rot = 32: q rotation 16 x 2 -> 16 x 4, k_pe 2 -> 4 (its pass-through stays 4).
  RopeKvArgs mla = mla_plan_args(16, 32);
  mla.cache_dtype = CacheDType::fp8_e4m3;
  expect_plan(make_fused_plan(mla, 8, 1, 4), 4, 0, 4, 4, 64, 64, 72, 136);
  // Not taken: 16-bit caches, gpt-j, or narrower chunks (40x8x80 rot = 40 at 4 a chunk).
  a.cache_dtype = CacheDType::auto_;
  EXPECT_FALSE(neox_half_units(a.style, a.cache_dtype, 8));
  a.cache_dtype = CacheDType::fp8_e5m2;
  EXPECT_TRUE(neox_half_units(a.style, a.cache_dtype, 8));
  EXPECT_FALSE(neox_half_units(a.style, a.cache_dtype, 4));
  a.style = RopeStyle::gptj;
  EXPECT_FALSE(neox_half_units(a.style, a.cache_dtype, 8));
}

// Beyond decode sizes, half units only where a token's q rotation units fill at most two warps.
TEST(FusedWorkPlan, NeoxHalfUnitsPayOnlyWithFewQueryRotationUnits) {
  const auto pays = [](RopeKvArgs a) {
    a.cache_dtype = CacheDType::fp8_e4m3;
    return neox_half_units_pay(a, make_fused_plan(a, 8));
  };
  EXPECT_TRUE(pays(plan_args(16, 2, 256, 64)));   // 16 x 4 = 64
  EXPECT_TRUE(pays(plan_args(8, 1, 64, 32)));     // 8 x 2
  EXPECT_TRUE(pays(mla_plan_args(16, 32)));       // 16 x 2
  EXPECT_FALSE(pays(plan_args(28, 4, 128, 64)));  // 28 x 4 = 112
  EXPECT_FALSE(pays(plan_args(32, 8, 128, 64)));
  EXPECT_FALSE(pays(plan_args(40, 8, 80, 64)));
  EXPECT_FALSE(pays(mla_plan_args(128, 32)));      // 128 x 2
  EXPECT_FALSE(pays(plan_args(16, 2, 256, 128)));  // 16 x 8
}

// Decode sizes (pad_always): every segment that is not whole warps is padded, whatever it costs,
// and the compact order inside each segment is unchanged.
TEST(FusedWorkPlan, DecodePaddingPutsEveryRoleInWarpsOfItsOwn) {
  // 8x1x64 gpt-j, full rotary: q 64, k 8, v 8 = 80 units, k and v sharing a warp; padded to
  // 64 + 32 + 32 = 128 (60 % more, refused by the 25 % rule, taken at decode sizes).
  RopeKvArgs a = plan_args(8, 1, 64, 64);
  a.style = RopeStyle::gptj;
  const WorkPlan p = make_fused_plan(a, 8);
  EXPECT_EQ(make_role_major_split(a, p).padded_units_per_token, 0);
  RoleMajorSplit s = make_role_major_split(a, p, true);
  EXPECT_EQ(s.padded_units_per_token, 128);
  const int starts[5] = {0, 64, 64, 96, 96}, lens[5] = {64, 0, 8, 0, 8};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s.seg_start[i], starts[i]) << i;
    EXPECT_EQ(s.seg_len[i], lens[i]) << i;
  }
  // mla:16 gpt-j, R = 32: q 64, k rotation 4, k pass 4, v 64 = 136; padded 64 + 32 + 32 + 64.
  a = mla_plan_args(16, 32);
  a.style = RopeStyle::gptj;
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8), true).padded_units_per_token, 192);
  // 28x4x128, R = 64: whole warps a token (224), one warp holding q's and k's rotations: padded
  // to 256 at decode sizes only.
  a = plan_args(28, 4, 128, 64);
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8)).padded_units_per_token, 0);
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8), true).padded_units_per_token, 256);
  // 32x8x128 gpt-j full rotary: 512 + 128 + 128, every segment whole warps: nothing to pad.
  a = plan_args(32, 8, 128, 128);
  a.style = RopeStyle::gptj;
  EXPECT_EQ(make_role_major_split(a, make_fused_plan(a, 8), true).padded_units_per_token, 0);
}

TEST(FusedWorkPlan, RoleMajorForNeoxAndFp8GptjRowsThatMixRoles) {
  for (int rot : {64, 32, 128}) {
    RopeKvArgs a = plan_args(32, 8, 128, rot);
    const bool partial = rot < 128;
    EXPECT_EQ(role_major_units(a, make_fused_plan(a, 8)), partial) << "neox rot " << rot;
    a.style = RopeStyle::gptj;  // 16-bit cache: measured either way on the H200, stays row-major
    EXPECT_FALSE(role_major_units(a, make_fused_plan(a, 8))) << "gptj rot " << rot;
    for (CacheDType fp8 : {CacheDType::fp8_e4m3, CacheDType::fp8_e5m2}) {
      a.cache_dtype = fp8;  // the quotient makes gpt-j's rotation warps long: role-major pays
      EXPECT_EQ(role_major_units(a, make_fused_plan(a, 8)), partial) << "gptj fp8 rot " << rot;
    }
  }
  // Partial rotary in place without a cache: no pass-through units, so nothing mixes.
  RopeKvArgs rope_only = plan_args(32, 8, 128, 64);
  rope_only.slot_mapping = nullptr;
  EXPECT_FALSE(role_major_units(rope_only, make_fused_plan(rope_only, 8)));
  // ... but a separate query_out gives q rows pass-through units.
  int dummy = 0;
  rope_only.query_out.data = &dummy;
  EXPECT_TRUE(role_major_units(rope_only, make_fused_plan(rope_only, 8)));
  // MLA neox with rot = 32 of k_pe's 64: k rows mix.
  RopeKvArgs mla = mla_plan_args(16, 32);
  EXPECT_TRUE(role_major_units(mla, make_fused_plan(mla, 8)));
  // MLA gpt-j stays row-major with either cache (fp8 gained nothing there).
  mla.style = RopeStyle::gptj;
  EXPECT_FALSE(role_major_units(mla, make_fused_plan(mla, 8)));
  mla.cache_dtype = CacheDType::fp8_e4m3;
  EXPECT_FALSE(role_major_units(mla, make_fused_plan(mla, 8)));
  mla.style = RopeStyle::neox;
  EXPECT_TRUE(role_major_units(mla, make_fused_plan(mla, 8)));
  mla.rot_dim = 64;
  EXPECT_FALSE(role_major_units(mla, make_fused_plan(mla, 8)));
}

TEST(FusedWorkPlan, CacheOnlyKeepsKeyUnitsForTheCache) {
  RopeKvArgs a = plan_args(8, 2, 128, 128);
  a.write_back_key = false;
  expect_plan(make_fused_plan(a, 8), 8, 0, 8, 0, 16, 64, 80, 112);
  // ... and with nothing cached either, k has no work at all.
  a.slot_mapping = nullptr;
  expect_plan(make_fused_plan(a, 8), 8, 0, 0, 0, 0, 64, 64, 64);
}

TEST(FusedWorkPlan, RopeOnlyHasNoValueUnits) {
  RopeKvArgs a = plan_args(8, 2, 128, 64);
  a.slot_mapping = nullptr;
  expect_plan(make_fused_plan(a, 8), 4, 0, 4, 0, 0, 32, 40, 40);
  // Zero cache tokens behave the same even with a slot mapping.
  a = plan_args(8, 2, 128, 64);
  a.num_cache_tokens = 0;
  expect_plan(make_fused_plan(a, 8), 4, 0, 4, 0, 0, 32, 40, 40);
}

TEST(FusedWorkPlan, MlaRotatesTheLastSixtyFourQueryDims) {
  // MLA: q 192 with dims [128, 192) rotated, k_pe 64, kv_c 512; gptj at 8 per access.
  RopeKvArgs a = mla_plan_args(16, 64);
  a.style = RopeStyle::gptj;
  expect_plan(make_fused_plan(a, 8), 8, 0, 8, 0, 64, 128, 136, 200);
  // Two chunks per copy unit (the wide kernel MLA takes on the strided grid): half the kv_c units.
  ASSERT_TRUE(copies_pair_up(make_fused_plan(a, 8)));
  expect_plan(make_fused_plan(a, 8, 2), 8, 0, 8, 0, 32, 128, 136, 168);
}

TEST(FusedWorkPlan, WideCopyUnitsOnlyWhereMlaCopiesAreAQuarterOfTheUnits) {
  RopeKvArgs mla = mla_plan_args(16, 64);
  for (RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    mla.style = style;
    for (int q_heads : {16, 32, 64, 128}) {
      mla.num_q_heads = q_heads;
      mla.rot_dim = 64;
      const WorkPlan p = make_fused_plan(mla, 8);
      // 64 kv_c copy units per token against 4 (neox) or 8 (gptj) rotation units per q head and
      // k_pe: a quarter or more for mla:16 both styles and mla:32 neox (64 of 196), not beyond.
      const bool expected = style == RopeStyle::neox ? q_heads <= 32 : q_heads <= 16;
      EXPECT_EQ(wide_copy_units(mla, p), expected) << q_heads << " q heads";
      // Partial rotary: never, whatever the share of copies (it is larger).
      mla.rot_dim = 32;
      EXPECT_FALSE(wide_copy_units(mla, make_fused_plan(mla, 8))) << q_heads << " q heads";
    }
  }
  // Ordinary heads (V as wide as K) never, partial rotary or not.
  for (int rot : {128, 64}) {
    RopeKvArgs a = plan_args(32, 8, 128, rot);
    EXPECT_FALSE(wide_copy_units(a, make_fused_plan(a, 8)));
    a.style = RopeStyle::gptj;
    EXPECT_FALSE(wide_copy_units(a, make_fused_plan(a, 8)));
  }
}

TEST(FusedWorkPlan, RoleMajorTwoChunkCopiesOnlyWhereCopiesAreTwoThirdsOfTheUnits) {
  // 32x32x128, R = 64: 128 q rotation, 32 x (4 + 8) k and 32 x 16 v units; copies 768 of 1024.
  RopeKvArgs a = plan_args(32, 32, 128, 64);
  EXPECT_TRUE(role_major_copies_dominate(a, make_fused_plan(a, 8)));
  // 32x8x128, R = 64: copies 8 x (8 + 16) = 192 of 352 (55 %).
  a = plan_args(32, 8, 128, 64);
  EXPECT_FALSE(role_major_copies_dominate(a, make_fused_plan(a, 8)));
  // MLA 16, R = 32: 16 x 2 q rotation, k_pe 2 + 4, kv_c 64: copies 68 of 102, exactly two thirds.
  RopeKvArgs mla = mla_plan_args(16, 32);
  EXPECT_EQ(make_fused_plan(mla, 8).units_per_token, 102);
  EXPECT_TRUE(role_major_copies_dominate(mla, make_fused_plan(mla, 8)));
  // MLA 128: 256 q rotation units against the same 68 copies.
  mla.num_q_heads = 128;
  EXPECT_FALSE(role_major_copies_dominate(mla, make_fused_plan(mla, 8)));
}

TEST(FusedWorkPlan, TwoChunksPerCopyUnitHalveOnlyTheCopies) {
  // R = 64 of D = 128: k's 8 pass-through chunks become 4 units, v's 16 become 8; rotation
  // units stay.
  expect_plan(make_fused_plan(plan_args(8, 2, 128, 64), 8, 2), 4, 0, 4, 4, 8, 32, 48, 64);
  // Pairing needs even chunk counts in k's pass-through and in v: D = 80, R = 48 has 4 and 10;
  // D = 72 has 9 v chunks.
  EXPECT_TRUE(copies_pair_up(make_fused_plan(plan_args(8, 2, 80, 48), 8)));
  EXPECT_FALSE(copies_pair_up(make_fused_plan(plan_args(8, 2, 72, 72), 8)));
}

TEST(FusedWorkPlan, RowWarpLayoutForNeoxRowsOfRotationThatFitAWarp) {
  // 40x8x80 bf16, full neox rotary, 8 per access: 10 chunks a row, three rows a warp.
  RopeKvArgs a = plan_args(40, 8, 80, 80);
  WorkPlan p = make_fused_plan(a, 8);
  ASSERT_TRUE(row_warp_layout(a, p));
  RowWarpPlan r = make_row_warp_plan(a, p);
  EXPECT_EQ(r.chunks, 10);
  EXPECT_EQ(r.rows_per_warp, 3);
  EXPECT_EQ(r.q_warps, 14);  // 40 rows, three a warp
  EXPECT_EQ(r.k_warps, 3);   // 8 rows
  EXPECT_EQ(r.v_warps, 3);   // 8 x 10 chunks
  EXPECT_EQ(r.lanes_per_token, 640);
  EXPECT_EQ(r.per_token.divisor, 640u);
  EXPECT_EQ(r.per_row.divisor, 10u);
  // 128-wide rows: 16 chunks, two rows a warp; 256-wide: one; fp32 80-wide at 4 per access: 20.
  const RopeKvArgs gqa = plan_args(32, 8, 128, 128);
  r = make_row_warp_plan(gqa, make_fused_plan(gqa, 8));
  EXPECT_EQ(r.rows_per_warp, 2);
  EXPECT_EQ(r.q_warps + r.k_warps + r.v_warps, 16 + 4 + 4);
  const RopeKvArgs wide = plan_args(16, 2, 256, 256);
  ASSERT_TRUE(row_warp_layout(wide, make_fused_plan(wide, 8)));
  EXPECT_EQ(make_row_warp_plan(wide, make_fused_plan(wide, 8)).rows_per_warp, 1);
  RopeKvArgs f32 = a;
  f32.dtype = DType::fp32;
  EXPECT_TRUE(row_warp_layout(f32, make_fused_plan(f32, 4)));
  // Not: gpt-j, partial rotary, an fp32 cos/sin table, MLA, a row of more than 32 chunks (fp32
  // 256-wide at 4 per access) or of one (8-wide at 8 per access).
  RopeKvArgs g = a;
  g.style = RopeStyle::gptj;
  EXPECT_FALSE(row_warp_layout(g, make_fused_plan(g, 8)));
  RopeKvArgs partial = plan_args(40, 8, 80, 40);
  EXPECT_FALSE(row_warp_layout(partial, make_fused_plan(partial, 4)));
  RopeKvArgs table32 = a;
  table32.cos_sin_fp32 = true;
  EXPECT_FALSE(row_warp_layout(table32, make_fused_plan(table32, 8)));
  RopeKvArgs mla = mla_plan_args(16, 64);
  EXPECT_FALSE(row_warp_layout(mla, make_fused_plan(mla, 8)));
  RopeKvArgs wide32 = plan_args(16, 2, 256, 256);
  wide32.dtype = DType::fp32;
  EXPECT_FALSE(row_warp_layout(wide32, make_fused_plan(wide32, 4)));
  const RopeKvArgs narrow = plan_args(8, 1, 8, 8);
  EXPECT_FALSE(row_warp_layout(narrow, make_fused_plan(narrow, 8)));
  // Without a cache no v warps; with neither a cache nor a key write-back no k warps either.
  RopeKvArgs rope_only = a;
  rope_only.slot_mapping = nullptr;
  r = make_row_warp_plan(rope_only, make_fused_plan(rope_only, 8));
  EXPECT_EQ(r.v_warps, 0);
  EXPECT_EQ(r.k_warps, 3);
  rope_only.write_back_key = false;
  r = make_row_warp_plan(rope_only, make_fused_plan(rope_only, 8));
  EXPECT_EQ(r.k_warps, 0);
  EXPECT_EQ(r.lanes_per_token, 32 * 14);
}

TEST(FusedWorkPlan, HalfRowsSplitSectorsOnlyWhereAHalfRowIsNotWholeSectors) {
  // 16-bit: D/2 x 2 bytes a multiple of 32 <=> D a multiple of 32.
  for (const int d : {16, 48, 80, 112, 144, 176, 208, 240}) {
    const RopeKvArgs a = plan_args(8, 2, d, d);
    EXPECT_TRUE(neox_half_rows_split_sectors(a, make_fused_plan(a, 8))) << d;
  }
  for (const int d : {32, 64, 96, 128, 256}) {
    const RopeKvArgs a = plan_args(8, 2, d, d);
    EXPECT_FALSE(neox_half_rows_split_sectors(a, make_fused_plan(a, 8))) << d;
  }
  RopeKvArgs f32 = plan_args(40, 8, 80, 80);  // 160-byte halves: five whole sectors
  f32.dtype = DType::fp32;
  EXPECT_FALSE(neox_half_rows_split_sectors(f32, make_fused_plan(f32, 4)));
  RopeKvArgs g = plan_args(40, 8, 80, 80);  // gpt-j: no half rows
  g.style = RopeStyle::gptj;
  EXPECT_FALSE(neox_half_rows_split_sectors(g, make_fused_plan(g, 8)));
  const RopeKvArgs partial = plan_args(40, 8, 80, 40);  // rows with pass-through chunks
  EXPECT_FALSE(neox_half_rows_split_sectors(partial, make_fused_plan(partial, 4)));
}

TEST(FusedWorkPlan, RotationWindowsSplitSectorsOnlyWhereTheyEndInsideOne) {
  // 16-bit, partial rotary: rot x 2 bytes a multiple of 32 <=> rot a multiple of 16; either style.
  for (const RopeStyle style : {RopeStyle::neox, RopeStyle::gptj})
    for (const int rot : {8, 24, 40, 56, 72}) {
      RopeKvArgs a = plan_args(40, 8, 80, rot);
      a.style = style;
      const int vec = rot % 16 == 0 ? 8 : 4;
      EXPECT_TRUE(rotation_window_splits_sectors(a, make_fused_plan(a, vec))) << rot;
    }
  for (const int rot : {16, 32, 48, 64}) {
    RopeKvArgs a = plan_args(40, 8, 80, rot);
    a.style = RopeStyle::gptj;
    EXPECT_FALSE(rotation_window_splits_sectors(a, make_fused_plan(a, 8))) << rot;
  }
  RopeKvArgs full = plan_args(40, 8, 80, 80);  // no pass-through units: nothing to share a sector
  full.style = RopeStyle::gptj;
  EXPECT_FALSE(rotation_window_splits_sectors(full, make_fused_plan(full, 8)));
  RopeKvArgs f32 = plan_args(40, 8, 80, 40);  // 160 bytes: five whole sectors
  f32.dtype = DType::fp32;
  f32.style = RopeStyle::gptj;
  EXPECT_FALSE(rotation_window_splits_sectors(f32, make_fused_plan(f32, 4)));
  const RopeKvArgs mla = mla_plan_args(16, 40);  // MLA's rows apart: left alone
  EXPECT_FALSE(rotation_window_splits_sectors(mla, make_fused_plan(mla, 4)));
}

TEST(FusedWorkPlan, MlaRotationWindowsDominateOnlyWithManyQueryRowsAndPartialRotary) {
  // Copy units (k_pe pass-through and the 512-wide latent) against the token's units at 8 a
  // chunk: mla:128 rot = 32 68 of 584 (gpt-j) and 326 (neox); mla:16 68 of 136 and of 102.
  for (const RopeStyle style : {RopeStyle::neox, RopeStyle::gptj}) {
    RopeKvArgs a = mla_plan_args(128, 32);
    a.style = style;
    EXPECT_TRUE(mla_rotation_windows_dominate(a, make_fused_plan(a, 8)));
    a = mla_plan_args(16, 32);
    a.style = style;
    EXPECT_FALSE(mla_rotation_windows_dominate(a, make_fused_plan(a, 8)));
    a = mla_plan_args(128, 64);  // full rotary: the strided grid's wide rule decides
    a.style = style;
    EXPECT_FALSE(mla_rotation_windows_dominate(a, make_fused_plan(a, 8)));
  }
  // The threshold itself: 4 x copies < units. mla:32 rot = 32 (gpt-j): 128 + 8 + 64 = 200 units,
  // 68 copies (34 %): not; mla:64: 256 + 8 + 64 = 328 units, 21 %: yes.
  RopeKvArgs a = mla_plan_args(32, 32);
  a.style = RopeStyle::gptj;
  EXPECT_FALSE(mla_rotation_windows_dominate(a, make_fused_plan(a, 8)));
  a = mla_plan_args(64, 32);
  a.style = RopeStyle::gptj;
  EXPECT_TRUE(mla_rotation_windows_dominate(a, make_fused_plan(a, 8)));
  EXPECT_FALSE(mla_rotation_windows_dominate(plan_args(128, 8, 128, 32),
                                             make_fused_plan(plan_args(128, 8, 128, 32), 8)));
}

TEST(FusedWorkPlan, RowWarpTokensAreWholeWarpsHoldingEveryRow) {
  // Random head counts and 16-bit head sizes of 2-32 chunks at 8 per access: every row has a lane
  // in its segment, no warp spare.
  std::mt19937 rng(std::random_device{}());
  for (int i = 0; i < 200; ++i) {
    const int d = 16 * (1 + static_cast<int>(rng() % 16)), hkv = 1 + static_cast<int>(rng() % 16);
    const int hq = hkv * (1 + static_cast<int>(rng() % 8));
    RopeKvArgs a = plan_args(hq, hkv, d, d);
    a.dtype = rng() % 2 ? DType::bf16 : DType::fp16;
    const WorkPlan p = make_fused_plan(a, 8);
    SCOPED_TRACE(testing::Message() << hq << "x" << hkv << "x" << d);
    ASSERT_TRUE(row_warp_layout(a, p));
    const RowWarpPlan r = make_row_warp_plan(a, p);
    EXPECT_EQ(r.chunks * 8, d);
    EXPECT_EQ(r.rows_per_warp, 32 / r.chunks);
    EXPECT_GE(r.q_warps * r.rows_per_warp, hq);
    EXPECT_LT((r.q_warps - 1) * r.rows_per_warp, hq);
    EXPECT_GE(r.k_warps * r.rows_per_warp, hkv);
    EXPECT_LT((r.k_warps - 1) * r.rows_per_warp, hkv);
    EXPECT_GE(r.v_warps * 32, hkv * p.v_units);
    EXPECT_LT((r.v_warps - 1) * 32, hkv * p.v_units);
    EXPECT_EQ(r.lanes_per_token % 32, 0);
  }
}

}  // namespace
}  // namespace rkv
