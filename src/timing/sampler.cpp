#include "timing/sampler.h"

#include <limits>

#include "device/cuda_check.h"

namespace rkv {

double Sampler::last_producer_us() const {
  return std::numeric_limits<double>::quiet_NaN();
}

void launch_checked(const TimedVariant& v, cudaStream_t stream) {
  cuda_check(v.launch(stream), "launching " + v.name);
}

}  // namespace rkv
