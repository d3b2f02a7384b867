// The reach of a CUDA failure decides whether a sweep goes on (device/cuda_failure.h); CPU-only.
#include <gtest/gtest.h>

#include "device/cuda_failure.h"

namespace rkv {
namespace {

TEST(CudaFailure, SuccessIsNoFailure) {
  EXPECT_EQ(classify_cuda_error(cudaSuccess), CudaFailureReach::none);
}

TEST(CudaFailure, OutOfMemoryEndsOnlyTheCase) {
  EXPECT_EQ(classify_cuda_error(cudaErrorMemoryAllocation), CudaFailureReach::out_of_memory);
}

TEST(CudaFailure, KernelFaultsAreSticky) {
  for (cudaError_t e :
       {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorAssert,
        cudaErrorMisalignedAddress, cudaErrorIllegalInstruction, cudaErrorHardwareStackError,
        cudaErrorLaunchTimeout, cudaErrorInvalidPc, cudaErrorECCUncorrectable, cudaErrorUnknown})
    EXPECT_EQ(classify_cuda_error(e), CudaFailureReach::sticky) << cudaGetErrorName(e);
}

TEST(CudaFailure, RefusalsAndResourceLimitsEndOnlyTheCase) {
  for (cudaError_t e :
       {cudaErrorInvalidValue, cudaErrorLaunchOutOfResources, cudaErrorInvalidConfiguration,
        cudaErrorNotSupported, cudaErrorInvalidDevicePointer})
    EXPECT_EQ(classify_cuda_error(e), CudaFailureReach::this_case) << cudaGetErrorName(e);
}

}  // namespace
}  // namespace rkv
