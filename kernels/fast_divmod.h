// Division by a divisor fixed for a whole launch, as a multiply-high and a shift (Granlund and
// Montgomery; the form CUTLASS's FastDivmod uses). The fused kernel splits every work index by up
// to four such divisors (units per token, units per q/k/v row, block size); replacing the integer
// divisions cut its code by a sixth and decode latency by a tenth (results/NOTES.md, v5).
//
// For divisor d >= 1 with k = ceil(log2 d): m = ceil(2^(31+k) / d) fits in 32 bits, and for
// 0 <= n < 2^31, floor(n * m / 2^(31+k)) = floor(n / d): n * m / 2^(31+k) exceeds n / d by less
// than n / 2^(31+k) < 2^-k <= 1/d, too little to reach the next integer. d = 1 is its own case.
#pragma once

#include <cstdint>

#include "host_device.h"

namespace rkv {

struct FastDivmod {
  std::uint32_t divisor = 0;
  std::uint32_t multiplier = 0;
  std::uint32_t shift = 0;  // applied after taking the high 32 bits of n * multiplier

  FastDivmod() = default;
  // A divisor of 0 leaves a divider that must not be used (its work index range is empty).
  explicit FastDivmod(std::uint32_t d) : divisor(d) {
    if (d <= 1) return;
    std::uint32_t k = 0;
    while ((std::uint64_t{1} << k) < d)
      ++k;
    multiplier =
        static_cast<std::uint32_t>(((std::uint64_t{1} << (31 + k)) + d - 1) / std::uint64_t{d});
    shift = k - 1;
  }

  // floor(n / divisor) for 0 <= n < 2^31.
  RKV_HOST_DEVICE std::uint32_t div(std::uint32_t n) const {
    if (divisor == 1) return n;
#if defined(__CUDA_ARCH__)
    return __umulhi(n, multiplier) >> shift;
#else
    return static_cast<std::uint32_t>((std::uint64_t{n} * multiplier) >> 32) >> shift;
#endif
  }
  // The quotient and the remainder.
  RKV_HOST_DEVICE void divmod(std::uint32_t n, std::uint32_t& q, std::uint32_t& r) const {
    q = div(n);
    r = n - q * divisor;
  }
};

}  // namespace rkv
