#include "timing/sm_clock_probe.h"

#include <cstdint>

#include "device/cuda_check.h"

namespace rkv {
namespace {

// SM clock in MHz: SM cycles over global-timer nanoseconds across a ~5 us spin on one thread.
// The reading goes straight to host-mapped memory: no copy-engine transfer sits between the
// probe and the round's first sample.
__global__ void clock_probe_kernel(volatile double* mhz) {
  std::uint64_t t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < 5000);
  const long long c1 = clock64();
  *mhz = static_cast<double>(c1 - c0) * 1e3 / static_cast<double>(t1 - t0);
}

}  // namespace

SmClockProbe::SmClockProbe() {
  void* host = nullptr;
  cuda_check(cudaHostAlloc(&host, sizeof(double), cudaHostAllocMapped),
             "allocating the clock probe's host-mapped slot");
  host_ = static_cast<double*>(host);
  void* device = nullptr;
  const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0);
  device_ = static_cast<double*>(device);
  if (e != cudaSuccess) {
    cudaFreeHost(host_);
    throw CudaError("mapping the clock probe's slot", e);
  }
}

SmClockProbe::~SmClockProbe() {
  if (host_ != nullptr) cudaFreeHost(host_);
}

double SmClockProbe::read_mhz(cudaStream_t stream) {
  clock_probe_kernel<<<1, 1, 0, stream>>>(device_);
  cuda_check(cudaGetLastError(), "clock probe");
  cuda_check(cudaStreamSynchronize(stream), "clock probe");
  return *static_cast<volatile double*>(host_);  // written by the device, not by this thread
}

}  // namespace rkv
