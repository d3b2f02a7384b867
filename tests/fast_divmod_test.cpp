// FastDivmod (kernels/fast_divmod.h) against / and % on the host path, which computes the same
// high product as the device's __umulhi (tests/gpu_validation_test.cu checks the device path).
#include "fast_divmod.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace rkv {
namespace {

// Divisors where a multiply-shift goes wrong first: small ones, powers of two and their
// neighbours, and the largest.
std::vector<std::uint32_t> divisors() {
  std::vector<std::uint32_t> d;
  for (std::uint32_t i = 1; i <= 1100; ++i)
    d.push_back(i);
  for (int k = 10; k <= 30; ++k)
    for (std::int64_t delta : {-1, 0, 1, 3})
      d.push_back(static_cast<std::uint32_t>((std::int64_t{1} << k) + delta));
  d.push_back(0x7fffffffu);
  return d;
}

// Dividends: around every multiple of d near the ends of the range, and random ones.
std::vector<std::uint32_t> dividends(std::uint32_t d, std::mt19937& rng) {
  std::vector<std::uint32_t> n{0, 1, d - 1, d, d + 1, 0x7fffffffu, 0x7ffffffeu};
  const std::uint32_t top = 0x7fffffffu / d * d;  // the largest multiple of d below 2^31
  for (std::int64_t m : {std::int64_t{top}, std::int64_t{top} - d, std::int64_t{2} * d})
    for (std::int64_t delta : {-1, 0, 1})
      if (m + delta >= 0 && m + delta <= 0x7fffffff)
        n.push_back(static_cast<std::uint32_t>(m + delta));
  std::uniform_int_distribution<std::uint32_t> any(0, 0x7fffffffu);
  for (int i = 0; i < 200; ++i)
    n.push_back(any(rng));
  return n;
}

TEST(FastDivmod, EqualsDivisionBelowTwoToThe31) {
  std::mt19937 rng(31);
  int bad = 0;
  for (std::uint32_t d : divisors()) {
    const FastDivmod f(d);
    for (std::uint32_t n : dividends(d, rng)) {
      std::uint32_t q, r;
      f.divmod(n, q, r);
      if ((q != n / d || r != n % d) && ++bad <= 5)
        ADD_FAILURE() << n << " / " << d << ": " << q << " r " << r << ", want " << n / d << " r "
                      << n % d;
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(FastDivmod, EverySmallDividendBySmallDivisors) {
  for (std::uint32_t d = 1; d <= 64; ++d) {
    const FastDivmod f(d);
    for (std::uint32_t n = 0; n < 70000; ++n)
      ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
  }
}

}  // namespace
}  // namespace rkv
