#include "device/device_info_model.h"

namespace rkv {

std::string DeviceInfo::fingerprint() const {
  return name + "|" + std::to_string(sm_count) + "|" + driver_version + "|" + runtime_version;
}

std::string format_gpu_uuid(const unsigned char (&bytes)[16]) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';  // 8-4-4-4-12 hex digits
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xf];
  }
  return out;
}

bool is_gpu_uuid_or_empty(const std::string& text) {
  if (text.empty()) return true;
  static const char kShape[] = "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  if (text.size() != sizeof(kShape) - 1) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (kShape[i] == 'x' ? !hex : c != kShape[i]) return false;
  }
  return true;
}

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace rkv
