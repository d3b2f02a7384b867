#include "device/cuda_failure.h"

namespace rkv {

CudaFailureReach classify_cuda_error(cudaError_t code) {
  switch (code) {
    case cudaSuccess:
      return CudaFailureReach::none;
    case cudaErrorMemoryAllocation:
      return CudaFailureReach::out_of_memory;
    // The codes CUDA documents as leaving the context unusable ("the process must be terminated
    // and relaunched"), plus the ones that mean the device itself is gone.
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoDevice:
    case cudaErrorUnknown:
      return CudaFailureReach::sticky;
    default:
      return CudaFailureReach::this_case;
  }
}

}  // namespace rkv
