// The CUDA side of rope_kv._ext: checked arguments (rope_kv_args.h) go to the kernel library's
// launchers, or, for check_args(data=True), to its data-dependent checks.
#pragma once

#include <cuda_runtime_api.h>

#include "refusal.h"
#include "rope_kv_args.h"

namespace rkv_ext {

// Launches `op` on the tensors' device (restoring the caller's current device after), on `stream`.
// Op::check runs the data-dependent checks where `data`, and nothing otherwise.
Error launch(Op op, const Prepared& p, cudaStream_t stream, bool data);

}  // namespace rkv_ext
