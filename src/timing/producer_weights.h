// The weights a reading producer streams (TimingOptions::producer_read_mib, reference/
// pdl_producer.h's ProducerRead): a ring of equal windows, each launch of the producer reading the
// next one. In an engine a layer's projection weights are not in L2 when the layer runs again (the
// other layers' weights have passed through it), so each window must miss L2 when its turn comes
// back: between two reads of one window, at least twice L2's capacity of other windows is read
// (twice for the reason L2Flush reads 2x L2: replacement is not exact LRU, and the H200's L2 is
// two partitions).
#pragma once

#include <cstdint>

#include "device/device_buffers.h"
#include "pdl_producer.h"

namespace rkv {

// Windows of `read_bytes` (> 0) in the ring for an L2 of `l2_bytes`: 1 + ceil(2 * L2 / read), and
// at least 2, so one launch never reads what the launch before it read.
std::int64_t producer_weight_windows(std::int64_t read_bytes, std::int64_t l2_bytes);

class ProducerWeights {
 public:
  // A zeroed ring of producer_weight_windows(read_bytes, l2_bytes) windows; read_bytes > 0, a
  // multiple of 16. Throws CudaError when the device is out of memory.
  ProducerWeights(std::int64_t read_bytes, std::int64_t l2_bytes);

  // The read of the next producer launch: the next window, wrapping around. Called once per
  // launch as it is queued or captured into a graph, so a graph of many launches rotates too.
  ProducerRead next();

  std::int64_t windows() const { return windows_; }

 private:
  std::int64_t read_bytes_;
  std::int64_t windows_;
  std::int64_t next_ = 0;
  DeviceBuffer ring_;
  DeviceBuffer sink_;  // written only if a window's XOR were its magic value (zeros never are)
};

}  // namespace rkv
