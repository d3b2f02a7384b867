#include "timing/timer.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "timing/cold_sampler.h"
#include "timing/graph_sampler.h"
#include "timing/sampling_driver.h"
#include "timing/sm_clock_probe.h"
#include "timing/wall_sampler.h"
#include "timing/warm_sampler.h"

namespace rkv {

StoppingRule::Params stopping_params(const TimingOptions& o) {
  StoppingRule::Params p;
  p.min_samples = o.min_samples;
  p.min_time_s = o.min_time_s;
  p.max_noise = o.max_noise;
  p.timeout_s = o.timeout_s;
  return p;
}

namespace {

__global__ void empty_kernel() {}

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

struct Timer::Impl {
  TimingOptions options;
  DeviceInfo device;
  Stream stream;
  EventPair events;
  SmClockProbe clock;
  DeviceBuffer l2_flush;  // cold mode: 2x L2, allocated the first time cold mode is used

  // The one place a timing mode becomes its sampler.
  std::unique_ptr<Sampler> make_sampler(TimingMode mode, const std::vector<TimedVariant>& v) {
    switch (mode) {
      case TimingMode::cold:
        if (l2_flush.get() == nullptr)
          l2_flush =
              DeviceBuffer(2 * std::max<std::int64_t>(device.l2_bytes, 1 << 20), "L2 flush buffer");
        return std::make_unique<ColdSampler>(stream.get(), events, l2_flush, v);
      case TimingMode::warm:
        return std::make_unique<WarmSampler>(stream.get(), events, options.batch_launches, v);
      case TimingMode::graph:
        return std::make_unique<GraphSampler>(stream.get(), events, options.graph_launches, v);
      case TimingMode::wall:
        return std::make_unique<WallSampler>(stream.get(), options.wall_launches, v);
    }
    throw std::logic_error("unknown timing mode");
  }
};

Timer::Timer(const TimingOptions& options, const DeviceInfo& device) : impl_(new Impl) {
  impl_->options = options;
  impl_->device = device;
}

Timer::~Timer() = default;

cudaStream_t Timer::stream() const {
  return impl_->stream.get();
}

std::vector<VariantSamples> Timer::sample(TimingMode mode,
                                          const std::vector<TimedVariant>& variants) {
  Impl& m = *impl_;
  const std::unique_ptr<Sampler> sampler = m.make_sampler(mode, variants);
  DriverParams p;
  p.rule = stopping_params(m.options);
  p.warmup_s = m.options.warmup_s;
  p.warmup_min = m.options.warmup_min;
  const SamplingDriver driver(p, [&m] { return m.clock.read_mhz(m.stream.get()); });
  std::vector<std::string> names;
  for (const TimedVariant& v : variants)
    names.push_back(v.name);
  return driver.run(*sampler, names);
}

double Timer::launch_floor_us(TimingMode mode) {
  const std::vector<TimedVariant> empty{{"empty", launch_empty_kernel}};
  return summarize(sample(mode, empty).front().us).median;
}

}  // namespace rkv
