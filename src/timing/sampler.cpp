#include "timing/sampler.h"

#include "device/cuda_check.h"

namespace rkv {

void launch_checked(const TimedVariant& v, cudaStream_t stream) {
  cuda_check(v.launch(stream), "launching " + v.name);
}

}  // namespace rkv
