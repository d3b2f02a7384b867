#include "validate/host_outputs.h"

#include <utility>

namespace rkv {

void HostOutputs::download(const OutputBuffers& b) {
  const std::pair<HostBytes*, const DeviceBuffer*> parts[] = {
      {&qkv, &b.qkv}, {&query_out, &b.query_out}, {&k_cache, &b.k_cache}, {&v_cache, &b.v_cache}};
  for (const auto& [host, device] : parts) {
    host->resize(device->bytes());
    device->download(host->data(), device->bytes());
  }
}

HostBytes& HostOutputs::of(BufferKind k) {
  switch (k) {
    case BufferKind::qkv:
      return qkv;
    case BufferKind::query_out:
      return query_out;
    case BufferKind::k_cache:
      return k_cache;
    case BufferKind::v_cache:
      return v_cache;
  }
  return qkv;
}

BufferPointers HostOutputs::pointers(const HostInputs& in) {
  BufferPointers b = input_pointers(in);
  b.qkv = qkv.data();
  b.query_out = query_out.empty() ? nullptr : query_out.data();
  b.k_cache = k_cache.empty() ? nullptr : k_cache.data();
  b.v_cache = v_cache.empty() ? b.k_cache : v_cache.data();
  return b;
}

}  // namespace rkv
