#include "timing/producer_weights.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>

#include "device/cuda_check.h"

namespace rkv {

std::int64_t producer_weight_windows(std::int64_t read_bytes, std::int64_t l2_bytes) {
  if (read_bytes <= 0) throw std::invalid_argument("producer weights: no bytes to read");
  const std::int64_t others = 2 * std::max<std::int64_t>(l2_bytes, 0);
  return std::max<std::int64_t>(2, 1 + (others + read_bytes - 1) / read_bytes);
}

ProducerWeights::ProducerWeights(std::int64_t read_bytes, std::int64_t l2_bytes)
    : read_bytes_(read_bytes),
      windows_(producer_weight_windows(read_bytes, l2_bytes)),
      ring_(read_bytes * windows_, "producer weights"),
      sink_(sizeof(unsigned), "producer weights sink") {
  if (read_bytes % 16 != 0)
    throw std::invalid_argument("producer weights: the read is not a multiple of 16 bytes");
  cuda_check(cudaMemset(ring_.get(), 0, static_cast<std::size_t>(ring_.bytes())),
             "zeroing the producer weights");
  cuda_check(cudaDeviceSynchronize(), "zeroing the producer weights");
}

ProducerRead ProducerWeights::next() {
  ProducerRead r;
  r.weights = static_cast<const unsigned char*>(ring_.get()) + next_ * read_bytes_;
  r.bytes = static_cast<std::size_t>(read_bytes_);
  r.sink = static_cast<unsigned*>(sink_.get());
  next_ = (next_ + 1) % windows_;
  return r;
}

}  // namespace rkv
