// The input refresh and the cold-mode touch on a GPU. A restore (DeviceCase::restore_qkv) brings a
// slot's q/k/v back to the bytes it started with after launches rotated them; a graph-mode timing
// long enough to drift the keys out of the fp8 quotient's fast range without the refresh (tens of
// thousands of launches on one slot) leaves every key inside it, on fresh random inputs; and the
// touch that puts page translations back after cold mode's flush (timing/page_translations.h)
// changes no byte.
//
// Every test here needs a GPU and skips, saying why, without one.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_info.h"
#include "fp32_quotient.h"
#include "gpu_skip.h"
#include "host_numeric.h"
#include "plan/timing_options.h"
#include "rope_kv.h"
#include "run/case_variants.h"
#include "timing/input_refresh.h"
#include "timing/page_translations.h"
#include "timing/timer.h"

namespace rkv {
namespace {

class GpuInputRefresh : public GpuTest {};

CaseSpec fp8_decode_case(DType dtype) {
  std::string error;
  CaseSpec s = *CaseSpec::parse_id(to_string(dtype) + "|fp8_e4m3|32x8x128|neox|nhd|N=1", &error);
  static std::random_device rd;
  s.seed = (std::uint64_t{rd()} << 32) | rd();
  return s;
}

// The keys of a slot's qkv, as floats.
std::vector<float> keys(const DeviceCase& dc, OutputSlot slot) {
  const std::vector<std::uint8_t> qkv = dc.outputs(slot).qkv.to_host();
  const TensorPlan& p = dc.plan;
  std::vector<float> k;
  for (std::int64_t t = 0; t < p.tokens; ++t)
    for (std::int64_t i = 0; i < std::int64_t{p.num_kv_heads} * p.k_head_size; ++i)
      k.push_back(load_scalar(p.spec.dtype, qkv.data(), t * p.row_elems + p.k_col + i));
  return k;
}

TEST_F(GpuInputRefresh, ARestoreBringsBackTheStartingBytes) {
  DeviceCase dc(fp8_decode_case(DType::bf16));
  dc.make_pristine_qkv();
  const std::vector<std::uint8_t> start = dc.slot_a.qkv.to_host();
  EXPECT_EQ(dc.pristine_qkv.to_host(), start);
  for (int k = 0; k < 3; ++k)
    cuda_check(rope_kv_fused(dc.args(OutputSlot::a), nullptr), "fused");
  cuda_check(cudaDeviceSynchronize(), "launches");
  ASSERT_NE(dc.slot_a.qkv.to_host(), start);  // rotated in place
  cuda_check(dc.restore_qkv(OutputSlot::a, nullptr), "restore");
  cuda_check(cudaDeviceSynchronize(), "restore");
  EXPECT_EQ(dc.slot_a.qkv.to_host(), start);
  EXPECT_EQ(dc.slot_b.qkv.to_host(), start);  // the other slot untouched
}

TEST_F(GpuInputRefresh, ALongGraphTimingKeepsEveryKeyInTheFastRange) {
  for (DType dtype : {DType::bf16, DType::fp16}) {
    SCOPED_TRACE(to_string(dtype));
    DeviceCase dc(fp8_decode_case(dtype));
    dc.make_pristine_qkv();
    const std::vector<TimedVariant> v = case_variants(dc, SlotAssignment::straight());
    ASSERT_EQ(v.size(), 4u);
    EXPECT_NE(v[0].refresh, v[1].refresh);  // fused and pair: separate slots
    EXPECT_EQ(v[1].refresh, v[2].refresh);  // the pair's kernels share the pair's slot
    EXPECT_EQ(v[1].refresh, v[3].refresh);
    // Enough samples that the fused slot alone takes 40 000 graph launches, past where the keys
    // drift out of range without restores (tests/input_refresh_test.cpp: 20 000 to 37 000).
    TimingOptions o;
    o.min_samples = 400;
    o.min_time_s = 0;
    o.max_noise = 1.0;  // converged at min_samples: exactly 400 samples per variant
    o.timeout_s = 30;
    o.warmup_s = 0;
    o.warmup_min = 1;
    o.graph_launches = 100;
    Timer timer(o, query_device_info());
    timer.sample(TimingMode::graph, v);
    EXPECT_GE(v[0].refresh->restores(), 39);  // one before the first sample, then every ten
    EXPECT_LE(v[0].refresh->launches_since_restore(), kInPlaceLaunchBudget);
    EXPECT_LE(v[1].refresh->launches_since_restore(), kInPlaceLaunchBudget);
    for (OutputSlot slot : {OutputSlot::a, OutputSlot::b}) {
      const std::vector<float> k = keys(dc, slot);
      EXPECT_TRUE(std::all_of(k.begin(), k.end(), detail::fast_quotient_input))
          << "slot " << to_string(slot);
    }
  }
}

// Cold mode's page-translation touch (timing/page_translations.h) only reads: every buffer of a
// variant keeps its bytes, including a range whose first byte is not page-aligned.
TEST_F(GpuInputRefresh, TheColdModeTouchOnlyReads) {
  DeviceCase dc(fp8_decode_case(DType::bf16));
  dc.make_pristine_qkv();
  const std::vector<TimedVariant> v =
      case_variants(dc, SlotAssignment::straight(), TimingMode::cold);
  ASSERT_FALSE(v[0].buffers.empty());
  const std::vector<std::uint8_t> qkv = dc.slot_a.qkv.to_host(),
                                  k_cache = dc.slot_a.k_cache.to_host();
  std::vector<DeviceRange> ranges = v[0].buffers;
  ranges.push_back(
      {static_cast<const unsigned char*>(dc.slot_a.qkv.get()) + 3, dc.slot_a.qkv.bytes() - 3});
  cuda_check(warm_translations(ranges, nullptr), "touch");
  cuda_check(cudaDeviceSynchronize(), "touch");
  EXPECT_EQ(dc.slot_a.qkv.to_host(), qkv);
  EXPECT_EQ(dc.slot_a.k_cache.to_host(), k_cache);
}

}  // namespace
}  // namespace rkv
