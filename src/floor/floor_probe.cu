#include "floor/floor_probe.h"

#include <algorithm>
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

CopyTiming time_copy(CopyKernel k, const PatternTiming& t, void* src, void* out, std::uint32_t flip,
                     const L2Flush& flush, cudaStream_t stream) {
  const std::string what = "floor probe " + t.pattern.text() + " " + copy_kernel_name(k);
  CopyTiming c;
  c.kernel = k;
  // Asked once here, so no device query sits between a sample's events.
  int resident = 0;
  if (k == CopyKernel::grid_stride) cuda_check(grid_stride_resident_ctas(&resident), what);
  for (int i = 0; i < kWarmupPasses; ++i)
    cuda_check(launch_strided_copy(src, out, t.rows, t.pattern, flip, stream, k, resident), what);
  EventPair events;
  for (int i = 0; i < kFloorProbeRuns; ++i) {
    flush.queue(stream);
    events.start(stream);
    cuda_check(launch_strided_copy(src, out, t.rows, t.pattern, flip, stream, k, resident), what);
    events.stop(stream);
    c.runs_us.push_back(static_cast<double>(events.elapsed_ms()) * 1e3);
  }
  c.median_us = summarize(c.runs_us).median;
  c.gbps = static_cast<double>(t.bytes_moved) / (c.median_us * 1e3);
  return c;
}

PatternTiming time_pattern(const CopyPattern& p, std::int64_t moved_mib, bool in_place,
                           const L2Flush& flush, cudaStream_t stream) {
  PatternTiming t;
  t.pattern = p;
  t.rows = floor_probe_rows(p, moved_mib);
  t.bytes_moved = 2 * t.rows * p.span_bytes;
  const std::int64_t footprint = t.rows * p.row_bytes;
  DeviceBuffer src(footprint, "floor probe source");
  DeviceBuffer dst;
  if (!in_place) dst = DeviceBuffer(footprint, "floor probe destination");
  void* out = in_place ? src.get() : dst.get();
  cuda_check(cudaMemsetAsync(src.get(), 0x5a, static_cast<std::size_t>(footprint), stream),
             "floor probe " + p.text());
  const std::uint32_t flip = in_place ? kInPlaceFlip : 0;
  for (CopyKernel k : all_copy_kernels())
    if (copy_kernel_applies(k, in_place, flip))
      t.copies.push_back(time_copy(k, t, src.get(), out, flip, flush, stream));
  return t;
}

}  // namespace

const CopyTiming& PatternTiming::best() const {
  return *std::min_element(
      copies.begin(), copies.end(),
      [](const CopyTiming& a, const CopyTiming& b) { return a.median_us < b.median_us; });
}

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
