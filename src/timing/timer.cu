#include "timing/timer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "timing/clock_settle.h"
#include "timing/cold_sampler.h"
#include "timing/graph_sampler.h"
#include "timing/input_refresh.h"
#include "timing/l2_flush.h"
#include "timing/producer_sampler.h"
#include "timing/sampling_driver.h"
#include "timing/sm_clock_probe.h"
#include "timing/stream_hold.h"
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

// A no-op in a grid launched without PDL: then the stream order alone made the previous grid
// complete first.
__global__ void wait_kernel() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}

// One CTA of one thread of `kernel`, with programmatic stream serialisation.
cudaError_t launch_one_thread_pdl(void (*kernel)(), cudaStream_t stream) {
  cudaLaunchAttribute pdl{};
  pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  config.stream = stream;
  config.attrs = &pdl;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel);
}

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

cudaError_t launch_empty_kernel_pdl(cudaStream_t stream) {
  return launch_one_thread_pdl(empty_kernel, stream);
}

cudaError_t launch_wait_kernel(cudaStream_t stream, bool pdl) {
  if (pdl) return launch_one_thread_pdl(wait_kernel, stream);
  wait_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

struct Timer::Impl {
  TimingOptions options;
  DeviceInfo device;
  Stream stream;
  EventPair events;
  SmClockProbe clock;
  StreamHold hold;                    // cold and producer modes
  std::unique_ptr<L2Flush> l2_flush;  // cold mode: made the first time cold mode is used
  double cold_event_pair_us = std::numeric_limits<double>::quiet_NaN();  // with l2_flush

  // The median cold window with no launch between the events: what the event pair itself adds
  // to a cold sample. Measured on the same hold and flush as the samples, after a few discarded
  // ones (the first use of the flush buffer and events).
  double measure_cold_event_pair() {
    const std::vector<TimedVariant> nothing{
        TimedVariant{"event pair", [](cudaStream_t) { return cudaSuccess; }, {}, {}, {}}};
    ColdSampler sampler(stream.get(), events, hold, *l2_flush, nothing, 0.0);
    constexpr int kDiscarded = 5, kSamples = 101;
    std::vector<double> us;
    for (int i = 0; i < kDiscarded + kSamples; ++i) {
      const double s = sampler.sample(0);
      if (i >= kDiscarded) us.push_back(s);
    }
    return summarize(us).median;
  }

  // The one place a timing mode becomes its sampler.
  std::unique_ptr<Sampler> make_sampler(TimingMode mode, const std::vector<TimedVariant>& v) {
    switch (mode) {
      case TimingMode::cold:
        if (!l2_flush) {
          l2_flush = std::make_unique<L2Flush>(device.l2_bytes);
          cold_event_pair_us = measure_cold_event_pair();
        }
        return std::make_unique<ColdSampler>(stream.get(), events, hold, *l2_flush, v,
                                             cold_event_pair_us);
      case TimingMode::warm:
        return std::make_unique<WarmSampler>(stream.get(), events, options.batch_launches, v);
      case TimingMode::graph:
        return std::make_unique<GraphSampler>(stream.get(), events, options.graph_launches, v);
      case TimingMode::wall:
        return std::make_unique<WallSampler>(stream.get(), options.wall_launches, v);
      case TimingMode::producer:
      case TimingMode::producer_pdl:
        return std::make_unique<ProducerSampler>(stream.get(), events, hold, options.graph_launches,
                                                 launches_with_pdl(mode), v);
    }
    throw std::logic_error("unknown timing mode");
  }
};

Timer::Timer(const TimingOptions& options, const DeviceInfo& device) : impl_(new Impl) {
  impl_->options = options;
  impl_->device = device;
}

Timer::~Timer() = default;

double Timer::cold_event_pair_us() const {
  return impl_->cold_event_pair_us;
}

cudaStream_t Timer::stream() const {
  return impl_->stream.get();
}

std::vector<VariantSamples> Timer::sample(TimingMode mode,
                                          const std::vector<TimedVariant>& variants) {
  Impl& m = *impl_;
  const std::unique_ptr<Sampler> mode_sampler = m.make_sampler(mode, variants);
  RefreshingSampler sampler(*mode_sampler, variants, m.stream.get());
  DriverParams p;
  p.rule = stopping_params(m.options);
  p.warmup_s = m.options.warmup_s;
  p.warmup_min = m.options.warmup_min;
  p.order = m.options.order;
  const SamplingDriver driver(p, [&m] { return m.clock.read_mhz(m.stream.get()); });
  std::vector<std::string> names;
  for (const TimedVariant& v : variants)
    names.push_back(v.name);
  return driver.run(sampler, names);
}

bool Timer::settle_clock(double timeout_s) {
  Impl& m = *impl_;
  ClockSettle settle(m.device.sm_clock_max_mhz, kThrottleFraction, 3);
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < timeout_s) {
    launch_spin(m.stream.get(), 2'000'000);  // 2 ms of load between readings
    if (settle.add(m.clock.read_mhz(m.stream.get()))) return true;
  }
  return false;
}

double Timer::launch_floor_us(TimingMode mode, int round_size) {
  // In the producer modes the empty kernel's producer is the empty kernel too, launched normally:
  // the floor there is what one more empty kernel adds to a graph (docs/methodology.md). In
  // producer_pdl the added one is launched with PDL, as every variant there is: the sampler
  // refuses a graph without a programmatic edge, and a plain launch would make none.
  const auto added =
      mode == TimingMode::producer_pdl ? launch_empty_kernel_pdl : launch_empty_kernel;
  return pooled_median_us(mode, TimedVariant{"empty", added, launch_empty_kernel, {}, {}},
                          round_size);
}

double Timer::producer_floor_us(TimingMode mode,
                                const std::function<cudaError_t(cudaStream_t)>& producer,
                                int round_size) {
  if (!is_producer_mode(mode) || !producer)
    throw std::invalid_argument("producer_floor_us: a producer mode and a producer are needed");
  const bool pdl = launches_with_pdl(mode);
  return pooled_median_us(
      mode,
      TimedVariant{
          "wait", [pdl](cudaStream_t s) { return launch_wait_kernel(s, pdl); }, producer, {}, {}},
      round_size);
}

double Timer::pooled_median_us(TimingMode mode, const TimedVariant& variant, int round_size) {
  const std::vector<TimedVariant> copies(static_cast<std::size_t>(std::max(round_size, 1)),
                                         variant);
  std::vector<double> pooled;
  for (const VariantSamples& v : sample(mode, copies))
    pooled.insert(pooled.end(), v.us.begin(), v.us.end());
  return summarize(pooled).median;
}

}  // namespace rkv
