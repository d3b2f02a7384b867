// The edge-case axes and the out-of-memory path on the device (they GTEST_SKIP() without a GPU):
// a case too large for any GPU fails with "out of device memory" and leaves the context usable;
// misaligned and special-value cases validate (fused = pair = golden, byte for byte).
#include <gtest/gtest.h>

#include <string>

#include "device/cuda_check.h"
#include "gpu_skip.h"
#include "plan/case_spec.h"
#include "validate/validator.h"

namespace rkv {
namespace {

class GpuEdge : public GpuTest {};

CaseSpec spec_of(const std::string& id) {
  std::string err;
  const auto s = CaseSpec::parse_id(id, &err);
  EXPECT_TRUE(s.has_value()) << err;
  return s.value_or(CaseSpec{});
}

TEST_F(GpuEdge, OutOfMemoryFailsOneCaseAndTheNextStillPasses) {
  // qkv alone is 1M tokens x 3 MiB: no GPU has that.
  const CaseValidation big =
      validate_spec(spec_of("bf16|auto|1024x1024x512|neox|nhd|N=1048576"), ValidateOptions{});
  EXPECT_EQ(big.disposition, Disposition::failed);
  EXPECT_EQ(big.reach, CudaFailureReach::out_of_memory);
  EXPECT_EQ(big.detail.rfind("out of device memory: ", 0), 0u) << big.detail;
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  const CaseValidation next =
      validate_spec(spec_of("bf16|auto|32x8x128|neox|nhd|N=33"), ValidateOptions{});
  EXPECT_EQ(next.disposition, Disposition::passed) << next.detail;
}

TEST_F(GpuEdge, MisalignedAndSpecialCasesValidate) {
  for (const char* id : {"bf16|auto|32x8x128|neox|nhd|N=33|misalign=8",
                         "bf16|fp8_e4m3|32x8x128|neox|nhd|N=33|misalign=4",
                         "bf16|fp8_e4m3|32x8x128|gptj|nhd|N=33|values=specials",
                         "fp16|fp8_e5m2|32x8x128|neox|nhd|N=33|values=specials",
                         "fp32|auto|32x8x128|gptj|nhd|N=33|values=specials"}) {
    const CaseValidation v = validate_spec(spec_of(id), ValidateOptions{});
    EXPECT_EQ(v.disposition, Disposition::passed) << id << ": " << v.detail;
  }
  const CaseValidation none =
      validate_spec(spec_of("bf16|auto|32x8x128|neox|nhd|N=33|misalign=2"), ValidateOptions{});
  EXPECT_EQ(none.disposition, Disposition::not_supported) << none.detail;
}

}  // namespace
}  // namespace rkv
