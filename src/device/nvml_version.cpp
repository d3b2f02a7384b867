// NVML is part of the driver, not of the toolkit: it is loaded at run time so the tool builds and
// runs (with a coarser driver version) where it is missing.
#include <dlfcn.h>

#include <string>

#include "device/device_info.h"

namespace rkv {

std::string nvml_driver_version() {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return "";
  using InitFn = int (*)();
  using VersionFn = int (*)(char*, unsigned);
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  auto version = reinterpret_cast<VersionFn>(dlsym(lib, "nvmlSystemGetDriverVersion"));
  auto shutdown = reinterpret_cast<InitFn>(dlsym(lib, "nvmlShutdown"));
  std::string out;
  if (init != nullptr && version != nullptr && init() == 0) {
    char buf[96] = {};
    if (version(buf, sizeof(buf)) == 0) out = buf;
    if (shutdown != nullptr) shutdown();
  }
  dlclose(lib);
  return out;
}

}  // namespace rkv
