// configs/edge.json covers what it says (issue 14 item 2), checked without a GPU: the widths the
// kernels pick for its cases (from the pointers the tool binds, misaligned as DeviceBuffer does)
// include every access width, some cases leave no width, the launcher accepts the rest, and the
// past-4-GiB, 1M-token and special-value cases are there.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "plan/sweep_config.h"
#include "plan/sweep_plan.h"
#include "plan/workload.h"
#include "rope_kv.h"

namespace rkv {
namespace {

SweepPlan plan_of(const std::string& name) {
  SweepConfig config;
  const auto error = load_sweep_config(std::string(RKV_SOURCE_DIR) + "/configs/" + name, &config);
  EXPECT_FALSE(error.has_value()) << *error;
  return plan_sweep(config.axes, config.extra_cases);
}

// Fake 2^40-spaced addresses plus the case's misalign, as DeviceCase binds them.
RopeKvArgs bound_args(const CaseSpec& spec, const TensorPlan& p) {
  auto at = [&](std::uintptr_t k, bool shifted) {
    return reinterpret_cast<void*>((k << 40) + (shifted ? spec.misalign : 0));
  };
  BufferPointers b;
  b.qkv = at(1, true);
  b.query_out = p.separate_query_out() ? at(2, true) : nullptr;
  b.k_cache = at(3, true);
  b.v_cache = p.cache_tensors == 2 ? at(4, true) : b.k_cache;
  b.positions = static_cast<const std::int64_t*>(at(5, false));
  b.slots = p.has_slots() ? static_cast<const std::int64_t*>(at(6, false)) : nullptr;
  if (spec.cache_dtype != CacheDType::auto_ && p.has_slots()) {
    b.k_scale = static_cast<const float*>(at(7, false));
    b.v_scale = static_cast<const float*>(at(8, false));
  }
  b.cos_sin = at(9, false);
  return bind_args(p, b);
}

std::int64_t elem_bytes(DType d) {
  return d == DType::fp32 ? 4 : 2;
}

TEST(EdgeConfig, ForcesEveryAccessWidthAndRefusesWhereNoneFits) {
  std::set<std::int64_t> qkv_widths, fp8_cache_widths;
  int refused = 0;
  for (const CaseSpec& spec : plan_of("edge.json").cases) {
    const TensorPlan p = make_tensor_plan(spec);
    const RopeKvArgs a = bound_args(spec, p);
    const int vec = rope_kv_vector_elems(a);
    if (vec == 0) {
      ++refused;
      EXPECT_NE(spec.misalign, 0) << spec.id();  // only a misaligned base may leave no width
      continue;
    }
    const char* why = check_launch_args(a);
    EXPECT_EQ(why, nullptr) << spec.id() << ": " << why;
    qkv_widths.insert(vec * elem_bytes(spec.dtype));
    if (spec.cache_dtype != CacheDType::auto_) fp8_cache_widths.insert(vec);
  }
  EXPECT_EQ(qkv_widths, (std::set<std::int64_t>{4, 8, 16}));
  EXPECT_TRUE(fp8_cache_widths.count(2)) << "no 2-byte fp8 cache access";
  EXPECT_GE(refused, 2);  // misalign=2 on bf16 and fp16/fp32 misalign leaving no width
}

TEST(EdgeConfig, HasTheBigCasesAndTheSpecials) {
  bool past_4gib = false, million = false;
  std::set<std::string> specials;
  for (const CaseSpec& spec : plan_of("edge.json").cases) {
    const TensorPlan p = make_tensor_plan(spec);
    if (p.has_slots() && p.cache_bytes() > (std::int64_t{1} << 32) &&
        p.num_blocks * spec.block_size < (std::int64_t{1} << 31))
      past_4gib = true;
    million = million || spec.tokens == (std::int64_t{1} << 20);
    if (spec.values == FillValues::specials)
      specials.insert(to_string(spec.dtype) + "/" + to_string(spec.cache_dtype));
  }
  EXPECT_TRUE(past_4gib);
  EXPECT_TRUE(million);
  EXPECT_EQ(specials.size(), 9u);  // every q/k/v dtype with every cache dtype
}

// The sanitizer subset stays small (memcheck is 10-100x slower) and misses no width.
TEST(EdgeConfig, SanitizerSubsetIsSmall) {
  const SweepPlan p = plan_of("edge-sanitizer.json");
  EXPECT_LE(p.cases.size(), 24u);
  for (const CaseSpec& spec : p.cases)
    EXPECT_LE(spec.tokens, 4096) << spec.id();
}

}  // namespace
}  // namespace rkv
