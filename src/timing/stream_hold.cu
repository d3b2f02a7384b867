#include "timing/stream_hold.h"

#include <atomic>

#include "device/cuda_check.h"

namespace rkv {
namespace {

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// `release` and `timed_out` live in host memory; volatile makes every iteration read it anew.
__global__ void hold_kernel(volatile int* release, volatile int* timed_out,
                            std::uint64_t timeout_ns) {
  const std::uint64_t t0 = global_timer_ns();
  while (*release == 0) {
    if (global_timer_ns() - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t t0 = global_timer_ns();
  while (global_timer_ns() - t0 < ns) {
  }
}

}  // namespace

StreamHold::StreamHold(std::uint64_t timeout_ns) : timeout_ns_(timeout_ns) {
  void* host = nullptr;
  cuda_check(cudaHostAlloc(&host, sizeof(Words), cudaHostAllocMapped),
             "allocating the stream hold's host-mapped flag");
  host_ = static_cast<Words*>(host);
  void* device = nullptr;
  const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0);
  if (e != cudaSuccess) {
    cudaFreeHost(host);
    throw CudaError("mapping the stream hold's flag", e);
  }
  device_ = static_cast<Words*>(device);
}

StreamHold::~StreamHold() {
  if (host_ != nullptr) cudaFreeHost(host_);
}

void StreamHold::hold(cudaStream_t stream) {
  // The previous hold's kernel has finished (its stream was synchronized), so nothing reads the
  // words while they are cleared.
  static_cast<volatile Words*>(host_)->release = 0;
  static_cast<volatile Words*>(host_)->timed_out = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  hold_kernel<<<1, 1, 0, stream>>>(&device_->release, &device_->timed_out, timeout_ns_);
  cuda_check(cudaGetLastError(), "launching the stream hold");
}

void StreamHold::release() {
  // Everything queued before this point is in the stream; the fence keeps the store after it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  static_cast<volatile Words*>(host_)->release = 1;
}

bool StreamHold::timed_out() const {
  return static_cast<volatile const Words*>(host_)->timed_out != 0;
}

void launch_spin(cudaStream_t stream, std::uint64_t ns) {
  spin_kernel<<<1, 1, 0, stream>>>(ns);
  cuda_check(cudaGetLastError(), "launching a spin kernel");
}

}  // namespace rkv
