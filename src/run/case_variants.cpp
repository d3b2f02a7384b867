#include "run/case_variants.h"

#include "plan/variant.h"
#include "rope_kv.h"
#include "unfused_pair.h"

namespace rkv {

std::vector<TimedVariant> case_variants(const DeviceCase& dc, SlotAssignment slots) {
  const RopeKvArgs fused = dc.args(slots.fused), pair = dc.args(slots.pair);
  return {
      {to_string(Variant::fused), [fused](cudaStream_t s) { return rope_kv_fused(fused, s); }},
      {to_string(Variant::pair), [pair](cudaStream_t s) { return unfused_pair(pair, s); }},
      {to_string(Variant::rope), [pair](cudaStream_t s) { return rope_inplace(pair, s); }},
      {to_string(Variant::cache_write), [pair](cudaStream_t s) { return cache_write(pair, s); }}};
}

}  // namespace rkv
