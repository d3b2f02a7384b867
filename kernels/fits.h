// Whether a 64-bit value fits a narrower integer type: the compact parameter blocks
// (row_warp_params.h and their kind) keep strides and counts in 32 or 16 bits, and their
// launchers take another kernel where a call's values would not fit.
#pragma once

#include <cstdint>
#include <limits>

namespace rkv {

template <typename Narrow>
constexpr bool fits_in(std::int64_t v) {
  return v >= std::int64_t{std::numeric_limits<Narrow>::min()} &&
         v <= std::int64_t{std::numeric_limits<Narrow>::max()};
}

}  // namespace rkv
