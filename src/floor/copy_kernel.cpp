#include "floor/copy_kernel.h"

namespace rkv {

std::vector<CopyKernel> all_copy_kernels() {
  return {CopyKernel::tile4, CopyKernel::tile8, CopyKernel::grid_stride, CopyKernel::memcpy2d};
}

std::string copy_kernel_name(CopyKernel k) {
  switch (k) {
    case CopyKernel::tile4:
      return "tile4";
    case CopyKernel::tile8:
      return "tile8";
    case CopyKernel::grid_stride:
      return "grid_stride";
    case CopyKernel::memcpy2d:
      return "memcpy2d";
  }
  return "unknown";
}

bool copy_kernel_applies(CopyKernel k, bool in_place, std::uint32_t flip) {
  return k != CopyKernel::memcpy2d || (!in_place && flip == 0);
}

}  // namespace rkv
