// The CPU golden model: the contract (docs/design.md) executed on the host, element by element, in
// the exact fp32 operation order a correct GPU kernel uses, so its bytes must equal the kernels'
// bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "rope_kv.h"

namespace rkv {

// Runs the whole operation on host memory: every pointer in `args` (positions, slot_mapping,
// cos_sin_cache, q/k/v, query_out, both caches, k_scale/v_scale) points at host memory laid out
// exactly as the device tensors would be. Outputs are written in place like the kernels do.
//
// `tokens`, when given, restricts the work to those tokens (each in [0, T)): only their q/k rows
// and cache entries are produced, which lets a validator check a sample of a very large case.
// `threads` > 1 splits the tokens over that many host threads.
void golden_rope_kv(const RopeKvArgs& args, const std::vector<std::int64_t>* tokens = nullptr,
                    int threads = 1);

}  // namespace rkv
