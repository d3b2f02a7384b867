// Empties L2 of everything a timed launch could find there, leaving no dirty line behind.
//
// Why a read, not a write: a write pass (cudaMemsetAsync over 2x L2, what this tool did before)
// leaves L2 full of the flush buffer's own dirty lines. The timed kernel's misses must then evict
// them, and evicting a dirty line writes it back to DRAM, so up to one L2 of write-back traffic
// (60 MB on an H200, about 15 us at 4 TB/s) lands inside the timed window and is billed to the
// kernel. A read pass over 2x L2 evicts every line the case left (its dirty lines are written back
// now, during the flush, outside the window) and fills L2 with clean lines of the flush buffer,
// which the timed kernel evicts for free. Twice the capacity because L2's replacement is not
// exact LRU and the H100/H200 L2 is split into two partitions: one capacity's worth of reads is
// not guaranteed to displace every older line.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/device_buffers.h"

namespace rkv {

class L2Flush {
 public:
  // A buffer of 2x `l2_bytes` (at least 2 MiB), zeroed once.
  explicit L2Flush(std::int64_t l2_bytes);
  // Queues the read pass on `stream`.
  void queue(cudaStream_t stream) const;
  std::int64_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
  DeviceBuffer sink_;  // written only if the sum of the buffer were its magic value (it is not)
};

}  // namespace rkv
