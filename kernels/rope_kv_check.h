// The data-dependent half of the contract (docs/design.md, "Bad input"), checked once on the host
// before any launch. The launchers themselves check, in O(1), only the fields and pointer values
// (check_launch_args in rope_kv.h); this check refuses all of that too, and what needs the data
// or a look at every pair of tensors: positions, slots, scales, and views sharing memory.
#pragma once

#include <cstdint>
#include <string>

#include "rope_kv.h"

namespace rkv {

// Host copies of the small device inputs the contract is about.
struct HostSideInputs {
  const std::int64_t* positions = nullptr;     // [T]
  const std::int64_t* slot_mapping = nullptr;  // [Tc], or nullptr when RoPE-only
  const float* k_scale = nullptr;              // [1] or [Hkv]; fp8 caches only
  const float* v_scale = nullptr;
};

// Refuses, besides what check_launch_args refuses: positions outside [0, max_position), slots
// below -1, past the cache or repeated, fp8 scales that are not finite and > 0, and any two of
// the tensors the operation is given (q, query_out, k, v, key_cache, value_cache, positions,
// slot_mapping, cos_sin_cache, k_scale, v_scale) sharing memory, except k_scale and v_scale being
// the same tensor.
// Returns "" when `args` may be launched, else one line naming the argument and the bad value,
// e.g. "positions[17] = 9000 is outside the cos/sin cache [0, 8192)".
std::string check_rope_kv_inputs(const RopeKvArgs& args, const HostSideInputs& host);

}  // namespace rkv
