#include "device/host_bytes.h"

#include <cuda_runtime_api.h>

#include "device/cuda_check.h"

namespace rkv {

HostBytes::~HostBytes() {
  if (data_ != nullptr) cudaFreeHost(data_);
}

void HostBytes::resize(std::int64_t bytes) {
  if (bytes > capacity_) {
    if (data_ != nullptr) cudaFreeHost(data_);
    data_ = nullptr;
    capacity_ = 0;
    void* p = nullptr;
    cuda_check(cudaMallocHost(&p, static_cast<std::size_t>(bytes)),
               "allocating page-locked host memory");
    data_ = static_cast<std::uint8_t*>(p);
    capacity_ = bytes;
  }
  size_ = bytes;
}

}  // namespace rkv
