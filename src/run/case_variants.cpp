#include "run/case_variants.h"

#include <stdexcept>

#include "pdl_producer.h"
#include "plan/variant.h"
#include "rope_kv.h"
#include "timing/input_refresh.h"
#include "unfused_pair.h"

namespace rkv {
namespace {

using Launch = std::function<cudaError_t(cudaStream_t)>;

// The producer of one output slot: copies the case's pristine q/k/v over the slot's qkv, after
// streaming the next window of `weights` when there are any.
Launch producer_of(const DeviceCase& dc, OutputSlot slot, ProducerWeights* weights) {
  if (dc.pristine_qkv.get() == nullptr)
    throw std::logic_error("producer mode: the case has no pristine qkv (make_pristine_qkv)");
  void* dst = dc.outputs(slot).qkv.get();
  const void* src = dc.pristine_qkv.get();
  const auto bytes = static_cast<std::size_t>(dc.pristine_qkv.bytes());
  return [dst, src, bytes, weights](cudaStream_t s) {
    return launch_pdl_producer(dst, src, bytes, 0, s,
                               weights != nullptr ? weights->next() : ProducerRead{});
  };
}

// What a launch on `slot` reads or writes: the case's inputs and that slot's outputs.
std::vector<DeviceRange> buffers_of(const DeviceCase& dc, OutputSlot slot) {
  const OutputBuffers& out = dc.outputs(slot);
  std::vector<DeviceRange> r;
  for (const DeviceBuffer* b : {&dc.positions, &dc.slots, &dc.k_scale, &dc.v_scale, &dc.cos_sin,
                                &out.qkv, &out.query_out, &out.k_cache, &out.v_cache})
    r.push_back({b->get(), b->bytes()});
  return r;
}

}  // namespace

std::shared_ptr<InputRefresh> input_refresh_of(const DeviceCase& dc, OutputSlot slot) {
  if (dc.pristine_qkv.get() == nullptr)
    throw std::logic_error("timing a case with no pristine qkv (make_pristine_qkv)");
  const DeviceCase* c = &dc;
  return std::make_shared<InputRefresh>(
      [c, slot](cudaStream_t s) { return c->restore_qkv(slot, s); });
}

std::vector<TimedVariant> case_variants(const DeviceCase& dc, SlotAssignment slots, TimingMode mode,
                                        ProducerWeights* weights) {
  RopeKvArgs fused = dc.args(slots.fused), pair = dc.args(slots.pair);
  fused.programmatic_dependent_launch = pair.programmatic_dependent_launch =
      launches_with_pdl(mode);
  std::vector<TimedVariant> v(4);
  v[0].launch = [fused](cudaStream_t s) { return rope_kv_fused(fused, s); };
  v[1].launch = [pair](cudaStream_t s) { return unfused_pair(pair, s); };
  v[2].launch = [pair](cudaStream_t s) { return rope_inplace(pair, s); };
  v[3].launch = [pair](cudaStream_t s) { return cache_write(pair, s); };
  const Variant order[] = {Variant::fused, Variant::pair, Variant::rope, Variant::cache_write};
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i].name = to_string(order[i]);
  v[0].buffers = buffers_of(dc, slots.fused);
  for (std::size_t i = 1; i < v.size(); ++i)
    v[i].buffers = buffers_of(dc, slots.pair);
  if (is_producer_mode(mode)) {
    v[0].producer = producer_of(dc, slots.fused, weights);
    for (std::size_t i = 1; i < v.size(); ++i)
      v[i].producer = producer_of(dc, slots.pair, weights);
  } else {
    v[0].refresh = input_refresh_of(dc, slots.fused);
    const std::shared_ptr<InputRefresh> pair_slot = input_refresh_of(dc, slots.pair);
    for (std::size_t i = 1; i < v.size(); ++i)
      v[i].refresh = pair_slot;  // the pair, rope and cache_write share one slot's inputs
  }
  return v;
}

}  // namespace rkv
