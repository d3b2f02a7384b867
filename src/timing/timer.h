// The timing engine's front door: samples several variants of one case in one mode. It owns the
// CUDA objects every sampler shares (stream, events, the cold-mode flush buffer, the SM clock
// probe), makes the mode's Sampler (cold_sampler.h, warm_sampler.h, graph_sampler.h,
// wall_sampler.h, producer_sampler.h) and hands it to the SamplingDriver (sampling_driver.h),
// which owns the order, the warm-up and the stopping rule. Every sample is per launch, in
// microseconds, and carries the SM clock measured right before its round.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "device/device_info_model.h"
#include "plan/timing_options.h"
#include "stats/stats.h"
#include "timing/sampler.h"
#include "timing/variant_samples.h"

namespace rkv {

class Timer {
 public:
  Timer(const TimingOptions& options, const DeviceInfo& device);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Samples every variant in `mode`, interleaved, until each one's stopping rule is met: one
  // pass's raw samples, in the order given (summarize_passes makes the statistics). The producer
  // modes need every variant's `producer`.
  std::vector<VariantSamples> sample(TimingMode mode, const std::vector<TimedVariant>& variants);

  // Keeps the GPU busy in short spins, reading the SM clock between them, until the clock has
  // held at least kThrottleFraction of `sm_clock_max_mhz` for three readings in a row or
  // `timeout_s` has passed; true when it settled. Run it before the floors and the first case so
  // that neither is measured while the clock ramps up from idle.
  bool settle_clock(double timeout_s = 1.0);

  // The empty-kernel time in `mode`: the launch floor stored in the device block. The empty
  // kernel is sampled as `round_size` identical variants in rotating rounds and their samples are
  // pooled, so each floor sample sits in a round exactly as a case's variant sample does (a floor
  // sampled alone would take every sample right after the clock probe; see docs/methodology.md,
  // "Floors").
  double launch_floor_us(TimingMode mode, int round_size);

  // The producer modes only: what a kernel that does nothing but wait for the previous grid
  // (griddepcontrol.wait, then exit; launched with PDL in producer_pdl) adds over `producer`
  // alone, sampled and pooled as launch_floor_us. With a case's producer this is the least any
  // consumer of that producer's output can add in `mode`: the floor under the case's added times
  // (docs/methodology.md, "What PDL saves"). Throws std::invalid_argument in another mode.
  double producer_floor_us(TimingMode mode,
                           const std::function<cudaError_t(cudaStream_t)>& producer,
                           int round_size);

  // As producer_floor_us, with a consumer that after the wait also reads what the producer wrote
  // at `output` (one 16-byte vector a lane of a warp, kCopyFloorBytes at most) and writes it to a
  // scratch buffer of the timer's: one dependent load and one store, the least any kernel that
  // consumes the producer's output and writes a result must add. The fused kernel's own time
  // above this floor is what a faster kernel could still save (docs/methodology.md).
  double producer_copy_floor_us(TimingMode mode,
                                const std::function<cudaError_t(cudaStream_t)>& producer,
                                const void* output, std::int64_t output_bytes, int round_size);

  // Cold mode's event-pair window (cold_sampler.h), measured the first time cold mode is used;
  // NaN until then.
  double cold_event_pair_us() const;

  cudaStream_t stream() const;

 private:
  // The median of `variant` sampled as `round_size` identical variants, their samples pooled.
  double pooled_median_us(TimingMode mode, const TimedVariant& variant, int round_size);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The stopping rule's parameters from the run's timing options.
StoppingRule::Params stopping_params(const TimingOptions& o);

// Launches one empty kernel (the launch floor's variant).
cudaError_t launch_empty_kernel(cudaStream_t stream);
// The same, launched with programmatic stream serialisation (the floor of producer_pdl mode).
cudaError_t launch_empty_kernel_pdl(cudaStream_t stream);
// One kernel that waits for the previous grid (griddepcontrol.wait) and exits: the consumer of
// Timer::producer_floor_us, launched normally or with programmatic stream serialisation.
cudaError_t launch_wait_kernel(cudaStream_t stream, bool pdl);

// The consumer of Timer::producer_copy_floor_us: one warp that waits for the previous grid, then
// copies copy_after_wait_bytes(src, src_bytes) bytes from the first 16-byte boundary at or after
// `src` to `dst` (16-byte aligned, kCopyFloorBytes long).
constexpr std::int64_t kCopyFloorBytes = 512;
std::int64_t copy_after_wait_bytes(const void* src, std::int64_t src_bytes);
cudaError_t launch_copy_after_wait_kernel(const void* src, std::int64_t src_bytes, void* dst,
                                          bool pdl, cudaStream_t stream);

}  // namespace rkv
