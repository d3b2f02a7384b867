// One case of a bench sweep across its passes: what pass 0 decided (validation, bytes), which
// output slot each variant used in each pass, where its buffers lay, and every pass's raw samples
// per timing mode. The
// pass loop (bench_passes.h) fills it; report assembly (bench_report.h) reads it.
#pragma once

#include <vector>

#include "device/device_buffers.h"
#include "report/report.h"
#include "timing/variant_samples.h"

namespace rkv {

struct BenchCase {
  CaseResult base;
  bool timed = false;  // validated (or not asked to be) and timed without an error so far
  std::vector<SlotAssignment> slots;                              // [pass]
  std::vector<BufferAddresses> addresses;                         // [pass], name order
  std::vector<std::vector<std::vector<VariantSamples>>> samples;  // [mode][pass][variant]
  // The producer modes: Timer::producer_floor_us with the case's producer, [mode][pass] (empty
  // for the other modes).
  std::vector<std::vector<double>> producer_floor_us;
  // ... and Timer::producer_copy_floor_us (the consumer also reads the producer's output).
  std::vector<std::vector<double>> producer_copy_floor_us;
};

}  // namespace rkv
