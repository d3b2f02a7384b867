#include "timing/sm_clock_probe.h"

#include <cstdint>

#include "device/cuda_check.h"

namespace rkv {
namespace {

// SM clock in MHz: SM cycles over global-timer nanoseconds across a ~5 us spin on one thread.
__global__ void clock_probe_kernel(double* mhz) {
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

SmClockProbe::SmClockProbe() : slot_(sizeof(double), "clock probe") {
  cuda_check(cudaMallocHost(&host_, sizeof(double)), "cudaMallocHost");
}

SmClockProbe::~SmClockProbe() {
  if (host_ != nullptr) cudaFreeHost(host_);
}

double SmClockProbe::read_mhz(cudaStream_t stream) {
  clock_probe_kernel<<<1, 1, 0, stream>>>(static_cast<double*>(slot_.get()));
  cuda_check(cudaGetLastError(), "clock probe");
  cuda_check(cudaMemcpyAsync(host_, slot_.get(), sizeof(double), cudaMemcpyDeviceToHost, stream),
             "clock probe readback");
  cuda_check(cudaStreamSynchronize(stream), "clock probe");
  return *host_;
}

}  // namespace rkv
