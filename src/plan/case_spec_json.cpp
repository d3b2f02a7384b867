#include "plan/case_spec_json.h"

#include <nlohmann/json.hpp>

namespace rkv {

using nlohmann::json;

void to_json(json& j, const CaseSpec& s) {
  j = json{{"dtype", to_string(s.dtype)},
           {"cache_dtype", to_string(s.cache_dtype)},
           {"heads", s.heads.name()},
           {"style", to_string(s.style)},
           {"rot_dim", s.rot_dim},
           {"layout", s.layout.name()},
           {"tokens", s.tokens},
           {"block_size", s.block_size},
           {"scale", to_string(s.scale)},
           {"slots", to_string(s.slots)},
           {"query_out", to_string(s.query_out)},
           {"key_out", to_string(s.key_out)},
           {"cos_sin_fp32", s.cos_sin_fp32},
           {"seed", s.seed}};
  // Written only when set, so reports of default cases stay as before (the edge-case axes).
  if (s.misalign != 0) j["misalign"] = s.misalign;
  if (s.values != FillValues::seeded) j["values"] = to_string(s.values);
}

}  // namespace rkv
