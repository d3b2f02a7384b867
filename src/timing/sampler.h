// One timing mode's way of taking one sample of one variant (cold_sampler.h, warm_sampler.h,
// graph_sampler.h, wall_sampler.h, producer_sampler.h). A sampler knows nothing of order, warm-up
// or stopping: the sampling driver (sampling_driver.h) decides which variant is sampled when, and
// for how long.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing/page_translations.h"

namespace rkv {

class InputRefresh;  // timing/input_refresh.h

// One thing to time: a call of the operation (or of one of its kernels) on a stream.
struct TimedVariant {
  std::string name;
  std::function<cudaError_t(cudaStream_t)> launch;
  // The producer modes only: the kernel that writes this variant's q/k/v before each launch
  // (producer_sampler.h). Empty in the other modes.
  std::function<cudaError_t(cudaStream_t)> producer;
  // What keeps in-place rotation from drifting this variant's inputs (input_refresh.h), shared
  // with the other variants on its output slot; null where nothing needs it.
  std::shared_ptr<InputRefresh> refresh;
  // The device memory a launch reads or writes: cold mode puts these pages' translations back
  // after the flush (page_translations.h). Empty: nothing is touched.
  std::vector<DeviceRange> buffers;
};

class Sampler {
 public:
  virtual ~Sampler() = default;
  // One sample of the variant at `index` (in the order the sampler was given its variants), in
  // microseconds per launch.
  virtual double sample(std::size_t index) = 0;
  // Launches one sample covers: the stopping rule counts measured time as sample x launches.
  virtual int launches_per_sample() const = 0;
  // The producer modes: the producer-alone time per launch that the last sample subtracted, in
  // microseconds. NaN in the modes that subtract nothing.
  virtual double last_producer_us() const;
};

// Launches `v` once on `stream`; a failed launch throws CudaError naming the variant.
void launch_checked(const TimedVariant& v, cudaStream_t stream);

}  // namespace rkv
