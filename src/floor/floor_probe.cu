#include "floor/floor_probe.h"

#include <string>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "floor/strided_copy.h"
#include "stats/stats.h"
#include "timing/l2_flush.h"

namespace rkv {
namespace {

constexpr int kWarmupPasses = 3;  // first touches of the pages, clocks ramping up
constexpr std::uint32_t kInPlaceFlip = 0x01010101u;

PatternTiming time_pattern(const CopyPattern& p, std::int64_t moved_mib, bool in_place,
                           const L2Flush& flush, cudaStream_t stream) {
  PatternTiming t;
  t.pattern = p;
  t.rows = floor_probe_rows(p, moved_mib);
  t.bytes_moved = 2 * t.rows * p.span_bytes;
  const std::int64_t footprint = t.rows * p.row_bytes;
  const std::string what = "floor probe " + p.text();
  DeviceBuffer src(footprint, "floor probe source");
  DeviceBuffer dst;
  if (!in_place) dst = DeviceBuffer(footprint, "floor probe destination");
  void* out = in_place ? src.get() : dst.get();
  cuda_check(cudaMemsetAsync(src.get(), 0x5a, static_cast<std::size_t>(footprint), stream), what);
  const std::uint32_t flip = in_place ? kInPlaceFlip : 0;
  for (int i = 0; i < kWarmupPasses; ++i)
    cuda_check(launch_strided_copy(src.get(), out, t.rows, p, flip, stream), what);
  EventPair events;
  for (int i = 0; i < kFloorProbeRuns; ++i) {
    flush.queue(stream);
    events.start(stream);
    cuda_check(launch_strided_copy(src.get(), out, t.rows, p, flip, stream), what);
    events.stop(stream);
    t.runs_us.push_back(static_cast<double>(events.elapsed_ms()) * 1e3);
  }
  t.median_us = summarize(t.runs_us).median;
  t.gbps = static_cast<double>(t.bytes_moved) / (t.median_us * 1e3);
  return t;
}

}  // namespace

std::vector<PatternTiming> time_copy_patterns(const FloorRequest& request, std::int64_t l2_bytes) {
  const Stream stream;
  const L2Flush flush(l2_bytes);
  std::vector<PatternTiming> out;
  for (const CopyPattern& p : request.patterns)
    out.push_back(time_pattern(p, request.moved_mib, request.in_place, flush, stream.get()));
  cuda_check(cudaStreamSynchronize(stream.get()), "floor probe");
  return out;
}

}  // namespace rkv
