// The device block of every report: what the GPU is, and the floors measured in this process
// (copy bandwidth, empty-kernel time per timing mode) that every case's numbers are read against.
#pragma once

#include <string>

#include "device/device_info_model.h"

namespace rkv {

// Name, UUID, SMs, L2, clocks, driver (NVML's version string when libnvidia-ml is loadable) and
// runtime.
DeviceInfo query_device_info();

// Bandwidth floor: a large device-to-device copy, (bytes read + bytes written) / median time.
double measure_copy_bandwidth_gbps();

// The driver version as NVML prints it ("580.159.04"), or "" when NVML cannot be loaded.
std::string nvml_driver_version();

}  // namespace rkv
