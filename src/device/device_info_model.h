// The device block of every report as plain data: what the numbers were measured on and the
// floors measured in the same process. Host-only (no CUDA), so readers of reports need no GPU;
// device_info.h fills it in on a real device.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace rkv {

// What the numbers were measured on, and the floors measured in the same process.
struct DeviceInfo {
  std::string name;
  // The board's CUDA UUID as nvidia-smi prints it ("GPU-" and 8-4-4-4-12 lowercase hex digits);
  // "" in reports written before the key existed. Not part of the fingerprint: two boards of one
  // model are the same kind of machine, but `compare` needs to know whether a baseline was
  // measured on this very board (docs/ci.md, "Same GPU or another").
  std::string uuid;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_clock_max_mhz = 0;
  int mem_clock_mhz = 0;
  int mem_bus_bits = 0;
  // NVML's "580.159.04" where available, else the CUDA driver API version as "12.8" (see
  // cuda_version_string). A report holding an integer here is read as its decimal text.
  std::string driver_version;
  std::string runtime_version;     // "12.8"
  double copy_bandwidth_gbps = 0;  // large device-to-device copy: (bytes read + written) / time
  std::map<std::string, double> launch_floor_us;  // timing mode name -> empty-kernel time
  // Each measurement of the floor (mode name -> [at the start of the run, at its end]);
  // launch_floor_us holds the lower. Empty in reports written before the key existed.
  std::map<std::string, std::vector<double>> launch_floor_runs_us;
  // Cold mode: the window of the event pair alone (start and stop event with nothing between,
  // in the same held, flushed state), subtracted from every cold sample of the run
  // (docs/methodology.md, "Cold mode"). NaN in runs without cold mode and in reports written
  // before cold samples were net of it, whose cold samples hold the whole window.
  double cold_event_pair_us = std::numeric_limits<double>::quiet_NaN();

  // Results are only comparable on the same GPU, driver and CUDA runtime: name|sms|driver|runtime.
  std::string fingerprint() const;
};

// The 16 bytes of cudaDeviceProp::uuid as nvidia-smi prints them:
// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lowercase.
std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

// Whether `text` is "" or what format_gpu_uuid writes (the report reader refuses anything else).
bool is_gpu_uuid_or_empty(const std::string& text);

// 12080 -> "12.8" (cudaRuntimeGetVersion's form).
std::string cuda_version_string(int version);

}  // namespace rkv
