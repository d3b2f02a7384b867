#include "device/seeded_fill.h"

#include "host_numeric.h"

namespace rkv {

void fill_values_host(void* dst, DType dtype, std::int64_t n, std::uint64_t seed,
                      std::uint64_t stream) {
  for (std::int64_t i = 0; i < n; ++i)
    store_scalar(dtype, dst, i, seeded_value(seed, stream, static_cast<std::uint64_t>(i)));
}

void fill_sentinel_host(void* dst, std::int64_t bytes, std::uint64_t seed) {
  auto* p = static_cast<std::uint8_t*>(dst);
  for (std::int64_t i = 0; i < bytes; ++i)
    p[i] = sentinel_byte(seed, static_cast<std::uint64_t>(i));
}

}  // namespace rkv
