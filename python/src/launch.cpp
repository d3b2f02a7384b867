// The launches of launch.h. The data-dependent half of the contract (positions in range, unique
// slots, finite scales) needs host copies of device data; check_args(data=True) makes them here
// and asks the library's own checker, check_rope_kv_inputs().
#include "launch.h"

#include <cstdint>
#include <string>
#include <vector>

#include "rope_kv.h"
#include "rope_kv_check.h"
#include "unfused_pair.h"

namespace rkv_ext {

namespace {

Error cuda_failure(const char* what, cudaError_t err) {
  return {ErrorKind::runtime,
          cat("rope_kv: ", what, cudaGetErrorName(err), ": ", cudaGetErrorString(err))};
}

// check_args(data=True): host copies of the device inputs, then the library's full contract.
Error check_device_data(const Prepared& p, cudaStream_t stream) {
  const rkv::RopeKvArgs& a = p.args;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return value_error(
        "data: check_args(data=True) copies device data to the host, which a CUDA graph "
        "capture cannot hold; check before capturing");
  std::vector<std::int64_t> positions(static_cast<std::size_t>(a.num_tokens));
  std::vector<std::int64_t> slots(static_cast<std::size_t>(a.num_cache_tokens));
  std::vector<float> k_scale(static_cast<std::size_t>(p.scale_count)),
      v_scale(static_cast<std::size_t>(p.scale_count));
  const auto copy = [&](void* dst, const void* src, std::size_t bytes) -> Error {
    if (bytes == 0) return {};
    const cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
    if (err != cudaSuccess) return cuda_failure("reading inputs back failed: ", err);
    return {};
  };
  RKV_TRY(copy(positions.data(), a.positions, positions.size() * 8));
  if (a.slot_mapping != nullptr) RKV_TRY(copy(slots.data(), a.slot_mapping, slots.size() * 8));
  if (a.k_scale != nullptr) {
    RKV_TRY(copy(k_scale.data(), a.k_scale, k_scale.size() * 4));
    RKV_TRY(copy(v_scale.data(), a.v_scale, v_scale.size() * 4));
  }
  const cudaError_t err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return cuda_failure("reading inputs back failed: ", err);
  rkv::HostSideInputs host;
  host.positions = positions.data();
  host.slot_mapping = a.slot_mapping != nullptr ? slots.data() : nullptr;
  host.k_scale = a.k_scale != nullptr ? k_scale.data() : nullptr;
  host.v_scale = a.v_scale != nullptr ? v_scale.data() : nullptr;
  const std::string e = rkv::check_rope_kv_inputs(a, host);
  if (!e.empty()) return value_error(e);
  return {};
}

}  // namespace

// Launches on the tensors' device (restoring the caller's current device after), on `stream`.
Error launch(Op op, const Prepared& p, cudaStream_t stream, bool data) {
  int current = 0;
  cudaError_t err = cudaGetDevice(&current);
  if (err == cudaSuccess && current != p.device) err = cudaSetDevice(p.device);
  Error refused;
  if (err == cudaSuccess) {
    switch (op) {
      case Op::check:
        if (data) refused = check_device_data(p, stream);
        break;
      case Op::fused:
        err = rkv::rope_kv_fused(p.args, stream);
        break;
      case Op::unfused_pair:
        err = rkv::unfused_pair(p.args, stream);
        break;
      case Op::rope_inplace:
        err = rkv::rope_inplace(p.args, stream);
        break;
      case Op::cache_write:
        err = rkv::cache_write(p.args, stream);
        break;
    }
    if (current != p.device) cudaSetDevice(current);
  }
  if (refused) return refused;
  if (err != cudaSuccess) return cuda_failure("CUDA error ", err);
  return {};
}

}  // namespace rkv_ext
