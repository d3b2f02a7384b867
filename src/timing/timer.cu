#include "timing/timer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"
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

// After the wait, lanes below `lanes` copy one 16-byte vector each: a dependent load of what the
// previous grid wrote, then a store, as any consumer of it does at the least.
__global__ void copy_after_wait_kernel(const uint4* src, uint4* dst, int lanes) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (static_cast<int>(threadIdx.x) < lanes) dst[threadIdx.x] = src[threadIdx.x];
}

// One CTA of `threads` threads of `kernel`, with programmatic stream serialisation when `pdl`.
template <typename... Params, typename... Args>
cudaError_t launch_one_cta(void (*kernel)(Params...), int threads, bool pdl, cudaStream_t stream,
                           Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

std::uintptr_t align_up_16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) + 15) / 16 * 16;
}

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

cudaError_t launch_empty_kernel_pdl(cudaStream_t stream) {
  return launch_one_cta(empty_kernel, 1, true, stream);
}

cudaError_t launch_wait_kernel(cudaStream_t stream, bool pdl) {
  return launch_one_cta(wait_kernel, 1, pdl, stream);
}

std::int64_t copy_after_wait_bytes(const void* src, std::int64_t src_bytes) {
  const auto skipped =
      static_cast<std::int64_t>(align_up_16(src) - reinterpret_cast<std::uintptr_t>(src));
  const std::int64_t usable = src_bytes - skipped;
  return usable < 16 ? 0 : std::min(usable / 16 * 16, kCopyFloorBytes);
}

cudaError_t launch_copy_after_wait_kernel(const void* src, std::int64_t src_bytes, void* dst,
                                          bool pdl, cudaStream_t stream) {
  const auto* from = reinterpret_cast<const uint4*>(align_up_16(src));
  const int lanes = static_cast<int>(copy_after_wait_bytes(src, src_bytes) / 16);
  return launch_one_cta(copy_after_wait_kernel, 32, pdl, stream, from, static_cast<uint4*>(dst),
                        lanes);
}

struct Timer::Impl {
  TimingOptions options;
  DeviceInfo device;
  Stream stream;
  EventPair events;
  SmClockProbe clock;
  StreamHold hold;                    // cold and producer modes
  std::unique_ptr<L2Flush> l2_flush;  // cold mode: made the first time cold mode is used
  // producer_copy_floor_us's consumer writes here; made the first time it is used.
  std::unique_ptr<DeviceBuffer> copy_floor_out;
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

double Timer::producer_copy_floor_us(TimingMode mode,
                                     const std::function<cudaError_t(cudaStream_t)>& producer,
                                     const void* output, std::int64_t output_bytes,
                                     int round_size) {
  if (!is_producer_mode(mode) || !producer || output == nullptr)
    throw std::invalid_argument(
        "producer_copy_floor_us: a producer mode, a producer and its output are needed");
  Impl& m = *impl_;
  if (!m.copy_floor_out)
    m.copy_floor_out = std::make_unique<DeviceBuffer>(kCopyFloorBytes, "copy floor output");
  void* out = m.copy_floor_out->get();
  const bool pdl = launches_with_pdl(mode);
  return pooled_median_us(mode,
                          TimedVariant{"copy",
                                       [=](cudaStream_t s) {
                                         return launch_copy_after_wait_kernel(output, output_bytes,
                                                                              out, pdl, s);
                                       },
                                       producer,
                                       {},
                                       {}},
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
