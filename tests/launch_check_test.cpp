// check_launch_args (rope_kv.h) without a GPU: every refusal, one spoiled field at a time, gives
// its reason, and the three launchers (and the pair) return cudaErrorInvalidValue for it before
// any CUDA call; valid arguments (and the variants that drop optional parts) are accepted. The
// arguments point at fake, well-aligned addresses: the check reads pointer values only, and a
// launcher only reaches the GPU when the check passes, which no spoiled case may.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "launch_spoilers.h"
#include "plan/sweep_config.h"
#include "plan/sweep_plan.h"
#include "plan/workload.h"
#include "rope_kv.h"
#include "unfused_pair.h"

namespace rkv {
namespace {

// The case bound the tool's way, every buffer at its own fake 2^40-spaced address.
RopeKvArgs fake_args(const CaseSpec& spec) {
  const TensorPlan p = make_tensor_plan(spec);
  auto at = [](std::uintptr_t k) { return reinterpret_cast<void*>(k << 40); };
  BufferPointers b;
  b.qkv = at(1);
  b.query_out = p.separate_query_out() ? at(2) : nullptr;
  b.k_cache = at(3);
  b.v_cache = p.cache_tensors == 2 ? at(4) : b.k_cache;
  b.positions = static_cast<const std::int64_t*>(at(5));
  b.slots = p.has_slots() ? static_cast<const std::int64_t*>(at(6)) : nullptr;
  if (spec.cache_dtype != CacheDType::auto_ && p.has_slots()) {
    b.k_scale = static_cast<const float*>(at(7));
    b.v_scale = static_cast<const float*>(at(8));
  }
  b.cos_sin = at(9);
  return bind_args(p, b);
}

std::string reason(const RopeKvArgs& a) {
  const char* why = check_launch_args(a);
  return why == nullptr ? "" : why;
}

TEST(LaunchCheck, AcceptsTheSpoilersBase) {
  EXPECT_EQ(reason(fake_args(launch_spoiler_base())), "");
}

class LaunchCheckSpoiled : public ::testing::TestWithParam<LaunchSpoiler> {};

TEST_P(LaunchCheckSpoiled, RefusedWithItsReasonByEveryLauncher) {
  RopeKvArgs a = fake_args(launch_spoiler_base());
  ASSERT_EQ(reason(a), "");
  GetParam().spoil(a);
  EXPECT_EQ(reason(a), GetParam().reason);
  EXPECT_EQ(rope_kv_fused(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(rope_inplace(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cache_write(a, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(unfused_pair(a, nullptr), cudaErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(All, LaunchCheckSpoiled, ::testing::ValuesIn(launch_spoilers()),
                         [](const ::testing::TestParamInfo<LaunchSpoiler>& info) {
                           return std::string(info.param.name);
                         });

TEST(LaunchCheck, EverySpoilerHasItsOwnNameAndEveryReasonIsCovered) {
  std::set<std::string> names;
  for (const LaunchSpoiler& s : launch_spoilers())
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
  EXPECT_GE(names.size(), 45u);
}

// ---- what is accepted

// No false alarm on any case of the validation matrix (every layout, option, MLA, fp32, partial
// rotary, RoPE-only, padded slots).
TEST(LaunchCheck, AcceptsEveryCaseOfTheFullMatrix) {
  SweepConfig config;
  const auto error =
      load_sweep_config(std::string(RKV_SOURCE_DIR) + "/configs/full-matrix.json", &config);
  ASSERT_FALSE(error.has_value()) << *error;
  const SweepPlan plan = plan_sweep(config.axes, config.extra_cases);
  ASSERT_GT(plan.cases.size(), 3000u);
  for (const CaseSpec& spec : plan.cases) {
    const RopeKvArgs a = fake_args(spec);
    if (rope_kv_vector_elems(a) == 0) continue;  // "not_supported" cases are refused by design
    EXPECT_EQ(reason(a), "") << spec.id();
  }
}

TEST(LaunchCheck, NoTokensNeedNoPointers) {
  RopeKvArgs a = fake_args(launch_spoiler_base());
  a.num_tokens = a.num_cache_tokens = 0;
  a.positions = nullptr;
  a.cos_sin_cache = nullptr;
  a.query.data = a.key.data = a.value.data = nullptr;
  a.key_cache.data = a.value_cache.data = nullptr;
  a.k_scale = a.v_scale = nullptr;
  EXPECT_EQ(reason(a), "");
  // ... but the shapes still have to make sense.
  a.rot_dim = 2 * a.k_head_size;
  EXPECT_EQ(reason(a), "rot_dim is larger than k_head_size");
}

TEST(LaunchCheck, RopeOnlyNeedsNoCacheValueOrScales) {
  RopeKvArgs a = fake_args(launch_spoiler_base());
  a.slot_mapping = nullptr;
  a.value.data = nullptr;
  a.key_cache = a.value_cache = CacheTensor{};
  a.block_size = 0;
  a.num_blocks = 0;
  a.k_scale = a.v_scale = nullptr;
  EXPECT_EQ(reason(a), "");
  // Zero cache tokens with a slot mapping write nothing either.
  RopeKvArgs b = fake_args(launch_spoiler_base());
  b.num_cache_tokens = 0;
  b.k_scale = b.v_scale = nullptr;
  b.key_cache.data = nullptr;
  EXPECT_EQ(reason(b), "");
}

TEST(LaunchCheck, AutoCacheNeedsNoScales) {
  CaseSpec s = launch_spoiler_base();
  s.cache_dtype = CacheDType::auto_;
  RopeKvArgs a = fake_args(s);
  a.k_scale = a.v_scale = nullptr;
  EXPECT_EQ(reason(a), "");
}

TEST(LaunchCheck, StridesOfLengthOneDimsAreIgnored) {
  // One token: the token stride is never multiplied by anything but 0.
  CaseSpec s = launch_spoiler_base();
  s.tokens = 1;
  RopeKvArgs a = fake_args(s);
  a.query.token_stride = -12344;  // a multiple of 8: the access width still fits
  a.key.token_stride = 0;
  EXPECT_EQ(reason(a), "");
  // One KV head: its head stride is never used (MLA's k_pe and kv_c views).
  CaseSpec mqa = launch_spoiler_base();
  mqa.heads = HeadConfig{4, 1, 64, false};
  RopeKvArgs b = fake_args(mqa);
  b.key.head_stride = 0;
  b.value.head_stride = -8;
  b.key_cache.head_stride = 0;
  EXPECT_EQ(reason(b), "");
}

TEST(LaunchCheck, QueryOutIsOptional) {
  RopeKvArgs a = fake_args(launch_spoiler_base());
  a.query_out = HeadTensor{};
  EXPECT_EQ(reason(a), "");
}

TEST(LaunchCheck, FullWindowAtTheEndOfTheQueryHead) {
  // MLA's shape: the window [128, 192) ends exactly at the head's end.
  CaseSpec s = launch_spoiler_base();
  s.heads = HeadConfig{16, 1, 0, true};
  s.rot_dim = 0;
  RopeKvArgs a = fake_args(s);
  ASSERT_EQ(a.q_rot_offset, 128);
  EXPECT_EQ(reason(a), "");
  a.q_rot_offset += 2;
  EXPECT_EQ(reason(a), "q_rot_offset + rot_dim is larger than q_head_size");
}

}  // namespace
}  // namespace rkv
