#include "device/device_info_model.h"

namespace rkv {

std::string DeviceInfo::fingerprint() const {
  return name + "|" + std::to_string(sm_count) + "|" + driver_version + "|" + runtime_version;
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace rkv
