// How far a CUDA failure reaches. An out-of-memory or a refused launch ends one case; a fault in
// a kernel (illegal address, launch failure, assert, ...) is "sticky": the context is poisoned and
// every later CUDA call fails, so a sweep that went on would record every later case as failed
// for a reason that is not theirs.
#pragma once

#include <cuda_runtime_api.h>

namespace rkv {

enum class CudaFailureReach { none, out_of_memory, this_case, sticky };

CudaFailureReach classify_cuda_error(cudaError_t code);

}  // namespace rkv
