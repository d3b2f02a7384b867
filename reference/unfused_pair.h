// The unfused reference pair, shaped like the kernels serving engines run today (vLLM's
// rotary_embedding + reshape_and_cache_flash, SGLang, TensorRT-LLM): one CTA per token whose
// threads stride over that token's 16-byte chunks. First a RoPE kernel rotates q and k in place,
// then a cache kernel reads the rotated k and the v back and writes the cache. Every speedup the
// tool reports divides by this pair, so it uses the same vector widths as the fused kernel.
#pragma once

#include <cuda_runtime_api.h>

#include "rope_kv.h"

namespace rkv {

// Kernel 1: rotates q (into query_out when set) and k, in place. Like the engines' RoPE kernels it
// always writes k back: the cache kernel reads it from there.
cudaError_t rope_inplace(const RopeKvArgs& args, cudaStream_t stream);

// Kernel 2: copies the (already rotated) k rows and the v rows of tokens with a slot into the
// cache, converting to fp8 when asked.
cudaError_t cache_write(const RopeKvArgs& args, cudaStream_t stream);

// Each of the three refuses what check_launch_args (rope_kv.h) refuses, with
// cudaErrorInvalidValue before any CUDA call, like rope_kv_fused: the pair never half-runs.

// Both, in order, on one stream.
cudaError_t unfused_pair(const RopeKvArgs& args, cudaStream_t stream);

}  // namespace rkv
