#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_compare.h"

namespace rkv {
namespace {

__global__ void compare_bytes_kernel(const std::uint8_t* a, const std::uint8_t* b,
                                     std::int64_t bytes, RowWindow skip, unsigned long long* count,
                                     unsigned long long* first) {
  unsigned long long local = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < bytes;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    if (a[i] == b[i]) continue;
    if (skip.row_bytes > 0) {
      const std::int64_t col = i % skip.row_bytes;
      if (col >= skip.skip_begin && col < skip.skip_end) continue;
    }
    ++local;
    atomicMin(first, static_cast<unsigned long long>(i));
  }
  if (local != 0) atomicAdd(count, local);
}

}  // namespace

ByteDiff compare_device_bytes(const void* a, const void* b, std::int64_t bytes, RowWindow skip) {
  ByteDiff out;
  if (bytes <= 0) return out;
  DeviceBuffer scratch(16, "compare counters");
  const unsigned long long init[2] = {0, ~0ull};
  scratch.upload(init, sizeof(init));
  auto* counters = static_cast<unsigned long long*>(scratch.get());
  const std::int64_t blocks64 = (bytes + 255) / 256;
  const unsigned blocks = static_cast<unsigned>(blocks64 < 8192 ? blocks64 : 8192);
  compare_bytes_kernel<<<blocks, 256>>>(static_cast<const std::uint8_t*>(a),
                                        static_cast<const std::uint8_t*>(b), bytes, skip, counters,
                                        counters + 1);
  cuda_check(cudaGetLastError(), "compare_bytes_kernel");
  unsigned long long result[2];
  scratch.download(result, sizeof(result));
  out.count = static_cast<std::int64_t>(result[0]);
  out.first = result[0] == 0 ? -1 : static_cast<std::int64_t>(result[1]);
  return out;
}

}  // namespace rkv
