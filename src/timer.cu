#include "timer.h"

#include <chrono>
#include <cstdint>

#include "cuda_check.h"
#include "device_buffers.h"

namespace rkv {
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

// A sample's clock below this fraction of the maximum marks it throttled.
constexpr double kThrottleFraction = 0.9;

}  // namespace

cudaError_t launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

struct Timer::Impl {
  TimingOptions options;
  DeviceInfo device;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  DeviceBuffer l2_flush;  // cold mode: 2x L2, written before every launch
  DeviceBuffer clock_slot;
  double* clock_host = nullptr;

  double sm_clock_mhz() {
    clock_probe_kernel<<<1, 1, 0, stream>>>(static_cast<double*>(clock_slot.get()));
    cuda_check(cudaGetLastError(), "clock probe");
    cuda_check(cudaMemcpyAsync(clock_host, clock_slot.get(), sizeof(double), cudaMemcpyDeviceToHost, stream),
               "clock probe readback");
    cuda_check(cudaStreamSynchronize(stream), "clock probe");
    return *clock_host;
  }

  float event_ms() {
    cuda_check(cudaEventSynchronize(stop), "waiting for a timed launch");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms;
  }

  void launch(const TimedVariant& v) { cuda_check(v.launch(stream), "launching " + v.name); }
};

Timer::Timer(const TimingOptions& options, const DeviceInfo& device) : impl_(new Impl) {
  impl_->options = options;
  impl_->device = device;
  cuda_check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  stream_ = impl_->stream;
  cuda_check(cudaEventCreate(&impl_->start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&impl_->stop), "cudaEventCreate");
  impl_->clock_slot = DeviceBuffer(sizeof(double), "clock probe");
  cuda_check(cudaMallocHost(&impl_->clock_host, sizeof(double)), "cudaMallocHost");
}

Timer::~Timer() {
  if (impl_->clock_host != nullptr) cudaFreeHost(impl_->clock_host);
  if (impl_->start != nullptr) cudaEventDestroy(impl_->start);
  if (impl_->stop != nullptr) cudaEventDestroy(impl_->stop);
  if (impl_->stream != nullptr) cudaStreamDestroy(impl_->stream);
}

std::vector<VariantResult> Timer::time(TimingMode mode, const std::vector<TimedVariant>& variants) {
  Impl& m = *impl_;
  const TimingOptions& o = m.options;
  const std::size_t n = variants.size();

  if (mode == TimingMode::cold && m.l2_flush.get() == nullptr)
    m.l2_flush = DeviceBuffer(2 * std::max<std::int64_t>(m.device.l2_bytes, 1 << 20), "L2 flush buffer");

  // Graph mode: one graph per variant, each capturing graph_launches calls.
  std::vector<cudaGraphExec_t> graphs(n, nullptr);
  if (mode == TimingMode::graph) {
    for (std::size_t i = 0; i < n; ++i) {
      cudaGraph_t g = nullptr;
      cuda_check(cudaStreamBeginCapture(m.stream, cudaStreamCaptureModeThreadLocal), "begin capture");
      cudaError_t launch_error = cudaSuccess;
      for (int k = 0; k < o.graph_launches && launch_error == cudaSuccess; ++k)
        launch_error = variants[i].launch(m.stream);
      const cudaError_t end = cudaStreamEndCapture(m.stream, &g);
      cuda_check(launch_error, "capturing " + variants[i].name);
      cuda_check(end, "end capture of " + variants[i].name);
      cuda_check(cudaGraphInstantiate(&graphs[i], g, 0), "instantiating the graph of " + variants[i].name);
      cudaGraphDestroy(g);
    }
  }
  struct GraphGuard {
    std::vector<cudaGraphExec_t>& g;
    ~GraphGuard() {
      for (auto e : g)
        if (e != nullptr) cudaGraphExecDestroy(e);
    }
  } guard{graphs};

  // One sample of variant i, in microseconds per launch.
  auto sample = [&](std::size_t i) -> double {
    const TimedVariant& v = variants[i];
    switch (mode) {
      case TimingMode::cold: {
        cuda_check(cudaMemsetAsync(m.l2_flush.get(), static_cast<int>(i & 0xff), m.l2_flush.bytes(), m.stream),
                   "flushing L2");
        cuda_check(cudaEventRecord(m.start, m.stream), "cudaEventRecord");
        m.launch(v);
        cuda_check(cudaEventRecord(m.stop, m.stream), "cudaEventRecord");
        return m.event_ms() * 1e3;
      }
      case TimingMode::warm: {
        cuda_check(cudaEventRecord(m.start, m.stream), "cudaEventRecord");
        for (int k = 0; k < o.batch_launches; ++k) m.launch(v);
        cuda_check(cudaEventRecord(m.stop, m.stream), "cudaEventRecord");
        return m.event_ms() * 1e3 / o.batch_launches;
      }
      case TimingMode::graph: {
        cuda_check(cudaEventRecord(m.start, m.stream), "cudaEventRecord");
        cuda_check(cudaGraphLaunch(graphs[i], m.stream), "replaying the graph of " + v.name);
        cuda_check(cudaEventRecord(m.stop, m.stream), "cudaEventRecord");
        return m.event_ms() * 1e3 / o.graph_launches;
      }
      case TimingMode::wall: {
        cuda_check(cudaStreamSynchronize(m.stream), "cudaStreamSynchronize");
        const auto t0 = Clock::now();
        for (int k = 0; k < o.wall_launches; ++k) m.launch(v);
        cuda_check(cudaStreamSynchronize(m.stream), "waiting for launches");
        return seconds_since(t0) * 1e6 / o.wall_launches;
      }
    }
    return 0;
  };

  // Warm-up by time, with a floor on the count: module load, clocks ramping, graph upload.
  for (std::size_t i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    for (int k = 0; k < o.warmup_min || seconds_since(t0) < o.warmup_s; ++k) sample(i);
  }

  const StoppingRule rule(o);
  std::vector<std::vector<double>> samples(n), clocks(n);
  std::vector<double> measured_s(n, 0.0);
  std::vector<StopDecision> decision(n);
  const auto t0 = Clock::now();
  for (bool all_done = false; !all_done;) {
    const double mhz = m.sm_clock_mhz();
    all_done = true;
    for (std::size_t i = 0; i < n; ++i) {
      if (decision[i].done) continue;
      const double us = sample(i);
      samples[i].push_back(us);
      clocks[i].push_back(mhz);
      // Time the GPU spent on this sample, for the stopping rule's min_time.
      const int launches = mode == TimingMode::graph  ? o.graph_launches
                           : mode == TimingMode::warm ? o.batch_launches
                           : mode == TimingMode::wall ? o.wall_launches
                                                      : 1;
      measured_s[i] += us * 1e-6 * launches;
      decision[i] = rule.decide(samples[i], seconds_since(t0), measured_s[i]);
      all_done = all_done && decision[i].done;
    }
  }

  std::vector<VariantResult> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    VariantResult& r = out[i];
    r.variant = variants[i].name;
    r.us = summarize(samples[i]);
    r.stop_reason = to_string(decision[i].reason);
    r.sm_clock_mhz_median = summarize(clocks[i]).median;
    for (double c : clocks[i])
      r.throttled_samples += c < kThrottleFraction * m.device.sm_clock_max_mhz;
  }
  return out;
}

double Timer::launch_floor_us(TimingMode mode) {
  const std::vector<TimedVariant> empty{{"empty", launch_empty_kernel}};
  return time(mode, empty).front().us.median;
}

}  // namespace rkv
