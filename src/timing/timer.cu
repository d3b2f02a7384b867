#include "timing/timer.h"

#include <chrono>
#include <cstdint>
#include <memory>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"

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

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

__global__ void empty_kernel() {}

// SM clock in MHz: SM cycles over global-timer nanoseconds across a ~5 us spin on one thread.
__global__ void clock_probe_kernel(double* mhz) {
  std::uint64_t t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < 5000);
  const long long c1 = clock64();
  *mhz = static_cast<double>(c1 - c0) * 1e3 / static_cast<double>(t1 - t0);
}

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

struct Timer::Impl {
  TimingOptions options;
  DeviceInfo device;
  Stream owned_stream;
  cudaStream_t stream = owned_stream.get();
  EventPair events;
  DeviceBuffer l2_flush;  // cold mode: 2x L2, written before every launch
  DeviceBuffer clock_slot;
  double* clock_host = nullptr;

  double sm_clock_mhz() {
    clock_probe_kernel<<<1, 1, 0, stream>>>(static_cast<double*>(clock_slot.get()));
    cuda_check(cudaGetLastError(), "clock probe");
    cuda_check(cudaMemcpyAsync(clock_host, clock_slot.get(), sizeof(double), cudaMemcpyDeviceToHost,
                               stream),
               "clock probe readback");
    cuda_check(cudaStreamSynchronize(stream), "clock probe");
    return *clock_host;
  }

  void launch(const TimedVariant& v) { cuda_check(v.launch(stream), "launching " + v.name); }
};

Timer::Timer(const TimingOptions& options, const DeviceInfo& device) : impl_(new Impl) {
  impl_->options = options;
  impl_->device = device;
  stream_ = impl_->stream;
  impl_->clock_slot = DeviceBuffer(sizeof(double), "clock probe");
  cuda_check(cudaMallocHost(&impl_->clock_host, sizeof(double)), "cudaMallocHost");
}

Timer::~Timer() {
  if (impl_->clock_host != nullptr) cudaFreeHost(impl_->clock_host);
}

std::vector<VariantSamples> Timer::sample(TimingMode mode,
                                          const std::vector<TimedVariant>& variants) {
  Impl& m = *impl_;
  const TimingOptions& o = m.options;
  const std::size_t n = variants.size();

  if (mode == TimingMode::cold && m.l2_flush.get() == nullptr)
    m.l2_flush =
        DeviceBuffer(2 * std::max<std::int64_t>(m.device.l2_bytes, 1 << 20), "L2 flush buffer");

  // Graph mode: one graph per variant, each capturing graph_launches calls.
  std::vector<std::unique_ptr<CapturedGraph>> graphs(n);
  if (mode == TimingMode::graph)
    for (std::size_t i = 0; i < n; ++i)
      graphs[i] = std::make_unique<CapturedGraph>(m.stream, o.graph_launches, variants[i].launch,
                                                  variants[i].name);

  // One sample of variant i, in microseconds per launch.
  auto take_one = [&](std::size_t i) -> double {
    const TimedVariant& v = variants[i];
    switch (mode) {
      case TimingMode::cold: {
        cuda_check(cudaMemsetAsync(m.l2_flush.get(), static_cast<int>(i & 0xff), m.l2_flush.bytes(),
                                   m.stream),
                   "flushing L2");
        m.events.start(m.stream);
        m.launch(v);
        m.events.stop(m.stream);
        return m.events.elapsed_ms() * 1e3;
      }
      case TimingMode::warm: {
        m.events.start(m.stream);
        for (int k = 0; k < o.batch_launches; ++k)
          m.launch(v);
        m.events.stop(m.stream);
        return m.events.elapsed_ms() * 1e3 / o.batch_launches;
      }
      case TimingMode::graph: {
        m.events.start(m.stream);
        graphs[i]->replay(m.stream);
        m.events.stop(m.stream);
        return m.events.elapsed_ms() * 1e3 / o.graph_launches;
      }
      case TimingMode::wall: {
        cuda_check(cudaStreamSynchronize(m.stream), "cudaStreamSynchronize");
        const auto t0 = Clock::now();
        for (int k = 0; k < o.wall_launches; ++k)
          m.launch(v);
        cuda_check(cudaStreamSynchronize(m.stream), "waiting for launches");
        return seconds_since(t0) * 1e6 / o.wall_launches;
      }
    }
    return 0;
  };

  // Warm-up by time, with a floor on the count: module load, clocks ramping, graph upload.
  for (std::size_t i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    for (int k = 0; k < o.warmup_min || seconds_since(t0) < o.warmup_s; ++k)
      take_one(i);
  }

  const StoppingRule rule(stopping_params(o));
  std::vector<VariantSamples> out(n);
  std::vector<double> measured_s(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    out[i].variant = variants[i].name;
  // Time the GPU spends per sample, in launches, for the stopping rule's min_time.
  const int launches = mode == TimingMode::graph  ? o.graph_launches
                       : mode == TimingMode::warm ? o.batch_launches
                       : mode == TimingMode::wall ? o.wall_launches
                                                  : 1;
  const auto t0 = Clock::now();
  for (bool all_done = false; !all_done;) {
    const double mhz = m.sm_clock_mhz();
    all_done = true;
    for (std::size_t i = 0; i < n; ++i) {
      VariantSamples& v = out[i];
      if (v.stop != StopReason::running) continue;
      const double us = take_one(i);
      v.us.push_back(us);
      v.sm_clock_mhz.push_back(mhz);
      measured_s[i] += us * 1e-6 * launches;
      v.stop = rule.decide(v.us, seconds_since(t0), measured_s[i]).reason;
      all_done = all_done && v.stop != StopReason::running;
    }
  }
  return out;
}

double Timer::launch_floor_us(TimingMode mode) {
  const std::vector<TimedVariant> empty{{"empty", launch_empty_kernel}};
  return summarize(sample(mode, empty).front().us).median;
}

}  // namespace rkv
