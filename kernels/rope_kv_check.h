// The data-dependent half of the contract (docs/design.md, "Bad input"), checked once on the host
// before any launch. The launchers themselves only check what they need to pick a kernel.
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

// Returns "" when `args` may be launched, else one line naming the argument and the bad value,
// e.g. "positions[17] = 9000 is outside the cos/sin cache [0, 8192)".
std::string check_rope_kv_inputs(const RopeKvArgs& args, const HostSideInputs& host);

}  // namespace rkv
