#include <algorithm>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_info.h"

namespace rkv {

DeviceInfo query_device_info() {
  DeviceInfo d;
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  auto attr = [&](cudaDeviceAttr a) {
    int v = 0;
    cuda_check(cudaDeviceGetAttribute(&v, a, dev), "cudaDeviceGetAttribute");
    return v;
  };
  d.name = prop.name;
  unsigned char uuid[16];
  for (int i = 0; i < 16; ++i)
    uuid[i] = static_cast<unsigned char>(prop.uuid.bytes[i]);
  d.uuid = format_gpu_uuid(uuid);
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = attr(cudaDevAttrL2CacheSize);
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_clock_max_mhz = attr(cudaDevAttrClockRate) / 1000;
  d.mem_clock_mhz = attr(cudaDevAttrMemoryClockRate) / 1000;
  d.mem_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
  int driver = 0, runtime = 0;
  cuda_check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  cuda_check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  d.driver_version = nvml_driver_version();
  if (d.driver_version.empty()) d.driver_version = cuda_version_string(driver);
  d.runtime_version = cuda_version_string(runtime);
  return d;
}

double measure_copy_bandwidth_gbps() {
  // 1 GiB each way: far past the 60 MB L2, long enough (~0.5 ms) that launch cost vanishes.
  constexpr std::int64_t kBytes = std::int64_t{1} << 30;
  DeviceBuffer src(kBytes, "bandwidth probe source"), dst(kBytes, "bandwidth probe destination");
  cuda_check(cudaMemset(src.get(), 1, kBytes), "bandwidth probe fill");
  cudaEvent_t start, stop;
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> seconds;
  for (int i = 0; i < 12; ++i) {
    cuda_check(cudaEventRecord(start), "cudaEventRecord");
    cuda_check(cudaMemcpyAsync(dst.get(), src.get(), kBytes, cudaMemcpyDeviceToDevice), "copy");
    cuda_check(cudaEventRecord(stop), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop), "bandwidth probe");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    if (i >= 2) seconds.push_back(ms * 1e-3);  // the first copies warm up clocks and TLBs
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(seconds.begin(), seconds.end());
  return 2.0 * static_cast<double>(kBytes) / seconds[seconds.size() / 2] / 1e9;
}

}  // namespace rkv
