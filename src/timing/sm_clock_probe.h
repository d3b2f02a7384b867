// Reads the SM clock between samples: a one-thread kernel spins for about 5 us of %globaltimer and
// counts clock64() cycles over that time. The reading is tagged onto every sample of a round so
// that throttled samples can be flagged (docs/methodology.md, "SM clock").
#pragma once

#include <cuda_runtime_api.h>

namespace rkv {

class SmClockProbe {
 public:
  SmClockProbe();
  ~SmClockProbe();
  SmClockProbe(const SmClockProbe&) = delete;
  SmClockProbe& operator=(const SmClockProbe&) = delete;

  // Runs the probe on `stream`, waits for it and returns the SM clock in MHz.
  double read_mhz(cudaStream_t stream);

 private:
  double* host_ = nullptr;    // page-locked, mapped into the device's address space
  double* device_ = nullptr;  // the same slot as the device sees it
};

}  // namespace rkv
