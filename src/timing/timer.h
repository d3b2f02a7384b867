// The timing engine: samples several variants of one case in one mode, interleaved (A B C D A B
// ...) so clock and thermal drift hit all of them alike, until each variant's StoppingRule is
// satisfied. Every sample is per launch, in microseconds, and carries the SM clock measured right
// before it so throttled samples can be flagged.
//
// Modes (benchmarking.md):
//   cold   one event pair per launch, after writing a buffer of 2x L2 so no input is cached;
//   warm   one event pair around `batch_launches` back-to-back launches over the same buffers;
//   graph  one event pair around the replay of a CUDA graph of `graph_launches` launches;
//   wall   host clock around `wall_launches` launches and one synchronize (what Python sees).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device/device_info_model.h"
#include "plan/timing_options.h"
#include "stats/stats.h"
#include "timing/variant_samples.h"

namespace rkv {

// One thing to time: a call of the operation (or of one of its kernels) on a stream.
struct TimedVariant {
  std::string name;
  std::function<cudaError_t(cudaStream_t)> launch;
};

class Timer {
 public:
  Timer(const TimingOptions& options, const DeviceInfo& device);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Samples every variant in `mode`, interleaved, until each one's stopping rule is met: one
  // pass's raw samples, in the order given (summarize_passes makes the statistics).
  std::vector<VariantSamples> sample(TimingMode mode, const std::vector<TimedVariant>& variants);

  // The empty-kernel time in `mode`: the launch floor stored in the device block.
  double launch_floor_us(TimingMode mode);

  cudaStream_t stream() const { return stream_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  cudaStream_t stream_ = nullptr;
};

// The stopping rule's parameters from the run's timing options.
StoppingRule::Params stopping_params(const TimingOptions& o);

// Launches one empty kernel (the launch floor's variant).
cudaError_t launch_empty_kernel(cudaStream_t stream);

}  // namespace rkv
